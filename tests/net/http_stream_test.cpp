// Bodies of real size through the HTTP server and client (common/net/http_server, http_client),
// against the real server on loopback: a route whose plan streams its body into a sink (a file
// written and hashed as it arrives, removed when dropped, as the scheduler's upload store does)
// and a route that keeps a small body in memory.
//   - 0 bytes, exactly the bound, one byte over (413 before any of the body is read, naming the
//     bound and its value), a chunked body passing the bound (413 then), a body over Beast's
//     default of 1 MiB taken under a larger bound (the bug the default caused)
//   - a client that stops mid-body: the sink is dropped, no file is left
//   - Expect: 100-continue answered before the body; the client streams a file with it and
//     gets the server's 413 (status and message), not a socket error, with no byte of the body
//     sent
//   - answers: a file answer streamed into a file under its bound; over the bound, an error
//     naming it; a header over max_header_bytes answered 400
#include <doctest/doctest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>

#include "common/net/http_client.hpp"
#include "common/net/http_server.hpp"
#include "common/security/digest.hpp"
#include "common/security/tokens.hpp"
#include "tests/test_util.hpp"

using namespace zk;
using namespace std::chrono_literals;
using zk::test::contains;
using zk::test::eventually;
using zk::test::read_text;
using zk::test::temp_dir_t;
using zk::test::write_text;
namespace fs = std::filesystem;
namespace asio = boost::asio;

namespace {

constexpr uint64_t bound = 3 << 20;  // the streamed route's bound: over Beast's default of 1 MiB

size_t files_in(const fs::path& dir) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

// A sink as the upload store's: a temporary file, hashed as it fills, removed unless kept.
class file_sink_t : public net::http_body_sink_t {
 public:
  explicit file_sink_t(std::string path) : path_(std::move(path)) {
    f_ = std::fopen(path_.c_str(), "wb");
  }
  ~file_sink_t() override {
    if (f_) std::fclose(f_);
    if (!kept_) fs::remove(path_);
  }
  std::optional<net::http_response_t> write(std::string_view piece) override {
    if (piece.find('!') != std::string_view::npos)  // a refusal mid-body
      return net::http_error(400, "a '!' in the body", true);
    hash_.update(piece);
    bytes_ += piece.size();
    std::fwrite(piece.data(), 1, piece.size(), f_);
    return std::nullopt;
  }
  std::optional<net::http_response_t> finish() override {
    std::fclose(f_);
    f_ = nullptr;
    return std::nullopt;
  }
  std::string keep() {
    kept_ = true;
    return hash_.hex();
  }
  uint64_t bytes() const { return bytes_; }

 private:
  std::string path_;
  std::FILE* f_ = nullptr;
  security::sha256_stream_t hash_;
  uint64_t bytes_ = 0;
  bool kept_ = false;
};

// The server under test: PUT /up streams into `dir` (bound `bound`, named
// scheduler.max_upload); POST /small keeps its body in memory (bound 4 MiB); GET /file answers
// the file `served`.
struct server_t {
  temp_dir_t dir{"zk_http_stream"};
  std::string served = dir.file("served.bin");
  std::unique_ptr<net::http_server_t> http;
  std::mutex mu;
  int sinks = 0;

  explicit server_t(net::http_options_t o = {}) {
    fs::create_directories(dir.path() / "up");
    o.json_errors = true;
    o.body_plan = [this](const net::http_request_t& head) {
      net::http_body_plan_t plan;
      if (head.path == "/up") {
        plan.limit = bound;
        plan.limit_name = "scheduler.max_upload";
        plan.hint = "raise scheduler.max_upload in the scheduler's config to send it";
        std::lock_guard<std::mutex> lock(mu);
        plan.sink = std::make_shared<file_sink_t>(
            (dir.path() / "up" / ("part" + std::to_string(++sinks))).string());
      } else if (head.path == "/small") {
        plan.limit = 4 << 20;
      }
      return plan;
    };
    http = std::make_unique<net::http_server_t>(
        "test", "127.0.0.1", 0,
        [](net::http_request_t r, std::shared_ptr<net::http_reply_t> reply) {
          net::http_response_t out;
          out.content_type = "application/json";
          if (r.path == "/up") {
            auto sink = std::dynamic_pointer_cast<file_sink_t>(r.sink);
            REQUIRE(sink);
            out.status = 201;
            out.body = nlohmann::json{{"bytes", sink->bytes()}, {"sha256", sink->keep()}}.dump();
          } else if (r.path == "/small") {
            out.body =
                nlohmann::json{{"bytes", r.body.size()}, {"sha256", security::sha256_hex(r.body)}}
                    .dump();
          } else if (r.path == "/file") {
            out.content_type = "application/octet-stream";
            out.file = r.query;  // the path, as given
          }
          reply->respond(out);
        },
        o);
  }
  size_t uploads() { return files_in(dir.path() / "up"); }
  net::http_call_t call(std::string method, std::string target) const {
    net::http_call_t c;
    c.host = "127.0.0.1";
    c.port = http->port();
    c.method = std::move(method);
    c.target = std::move(target);
    c.timeout = 30s;
    return c;
  }
};

std::string bytes_of(size_t n, char fill = 'z') {
  std::string s(n, fill);
  for (size_t i = 0; i < n; i += 4099) s[i] = char('a' + i % 23);
  return s;
}

// A client speaking HTTP by hand: what it sends and when it stops are the test's.
struct raw_client_t {
  asio::io_context io;
  asio::ip::tcp::socket s{io};
  explicit raw_client_t(uint16_t port) { s.connect({asio::ip::make_address("127.0.0.1"), port}); }
  void send(const std::string& bytes) { asio::write(s, asio::buffer(bytes)); }
  // Everything until the server closes, or what came within `limit`.
  std::string read_until_close(std::chrono::milliseconds limit = 10s) {
    std::string got;
    s.non_blocking(true);
    const auto end = std::chrono::steady_clock::now() + limit;
    char buf[4096];
    while (std::chrono::steady_clock::now() < end) {
      boost::system::error_code ec;
      const size_t n = s.read_some(asio::buffer(buf), ec);
      got.append(buf, n);
      if (ec == asio::error::would_block) {
        std::this_thread::sleep_for(5ms);
        continue;
      }
      if (ec) break;
    }
    return got;
  }
  // What the server has sent so far, waiting up to `limit` for `part` to appear in it.
  std::string read_for(std::string_view part, std::chrono::milliseconds limit = 10s) {
    std::string got;
    s.non_blocking(true);
    const auto end = std::chrono::steady_clock::now() + limit;
    char buf[4096];
    while (!contains(got, part) && std::chrono::steady_clock::now() < end) {
      boost::system::error_code ec;
      const size_t n = s.read_some(asio::buffer(buf), ec);
      got.append(buf, n);
      if (ec == asio::error::would_block)
        std::this_thread::sleep_for(5ms);
      else if (ec)
        break;
    }
    return got;
  }
};

std::string put_head(uint64_t length, const std::string& more = "") {
  return "PUT /up HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(length) + "\r\n" +
         more + "\r\n";
}

}  // namespace

TEST_CASE("http streamed body: 0 bytes, exactly the bound, one byte over (413 before the body)") {
  server_t srv;
  for (const uint64_t n : {uint64_t(0), bound}) {
    auto c = srv.call("PUT", "/up");
    c.body = bytes_of(n);
    auto a = net::http_call(c);
    REQUIRE_MESSAGE(a, a.error());
    CHECK(a->status == 201);
    const auto j = nlohmann::json::parse(a->body);
    CHECK(j["bytes"] == n);
    CHECK(j["sha256"] == security::sha256_hex(c.body));
  }
  CHECK(srv.uploads() == 2);  // both kept
  // One over, declared: the 413 comes back although not one byte of the body was sent.
  raw_client_t raw(srv.http->port());
  raw.send(put_head(bound + 1));
  const std::string answer = raw.read_until_close();
  CHECK_MESSAGE(contains(answer, "HTTP/1.1 413"), answer);
  const std::string why = answer.substr(answer.find("\r\n\r\n") + 4);
  const auto j = nlohmann::json::parse(why);
  CHECK(j["error"] == "the body (" + std::to_string(bound + 1) +
                          " bytes) is over scheduler.max_upload (" + std::to_string(bound) +
                          " bytes, 3 MiB): raise scheduler.max_upload in the scheduler's config to "
                          "send it");
  CHECK(eventually([&] { return srv.uploads() == 2; }));  // the refused one left nothing
}

TEST_CASE("http streamed body: a chunked body is refused when it passes the bound") {
  server_t srv;
  raw_client_t raw(srv.http->port());
  raw.send("PUT /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
  char size[32];
  std::snprintf(size, sizeof size, "%llx\r\n", (unsigned long long)(bound - 10));
  raw.send(size + bytes_of(bound - 10) + "\r\n");
  raw.send("20\r\n" + bytes_of(32) + "\r\n");  // passes it by 22 bytes
  const std::string answer = raw.read_for("\r\n\r\n{");
  CHECK_MESSAGE(contains(answer, "HTTP/1.1 413"), answer);
  CHECK(contains(answer, "the body (sent in chunks) is over scheduler.max_upload (3145728 bytes"));
  CHECK(eventually([&] { return srv.uploads() == 0; }));
  // Chunked within the bound: taken.
  raw_client_t ok(srv.http->port());
  ok.send("PUT /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
  ok.send("5\r\nwtns1\r\n3\r\n234\r\n0\r\n\r\n");
  const std::string taken = ok.read_until_close();
  CHECK_MESSAGE(contains(taken, "HTTP/1.1 201"), taken);
  CHECK(contains(taken, security::sha256_hex("wtns1234")));
}

TEST_CASE("http in-memory body: over Beast's 1 MiB default, under the route's bound, is taken") {
  server_t srv;
  for (const size_t n : {size_t(1048000), size_t(1049000), size_t(4 << 20)}) {
    auto c = srv.call("POST", "/small");
    c.body = bytes_of(n);
    auto a = net::http_call(c);
    REQUIRE_MESSAGE(a, a.error());
    CHECK_MESSAGE(a->status == 200, n);
    CHECK(nlohmann::json::parse(a->body)["bytes"] == n);
  }
  auto c = srv.call("POST", "/small");
  c.body = bytes_of((4 << 20) + 1);
  auto a = net::http_call(c);
  REQUIRE_MESSAGE(a, a.error());  // the server's answer, not the broken pipe its close causes
  CHECK(a->status == 413);
  CHECK(contains(a->body, "is over this route's bound (4194304 bytes, 4 MiB)"));
  // Any other route: 64 KiB.
  c = srv.call("POST", "/other");
  c.body = bytes_of((64 << 10) + 1);
  a = net::http_call(c);
  REQUIRE_MESSAGE(a, a.error());
  CHECK(a->status == 413);
}

TEST_CASE("http streamed body: a client that stops mid-body leaves no file, a refusal neither") {
  server_t srv;
  {
    raw_client_t raw(srv.http->port());
    raw.send(put_head(bound) + bytes_of(bound / 2));
    CHECK(eventually([&] { return srv.uploads() == 1; }));  // the body is on its way to disk
  }                                                         // the client goes
  CHECK(eventually([&] { return srv.uploads() == 0; }));
  // The sink refuses mid-body: its answer, the rest not read, nothing kept.
  raw_client_t raw(srv.http->port());
  raw.send(put_head(1 << 20) + bytes_of(1000) + "!" + bytes_of(1000));
  const std::string answer = raw.read_for("\r\n\r\n{");
  CHECK_MESSAGE(contains(answer, "HTTP/1.1 400"), answer);
  CHECK(contains(answer, "a '!' in the body"));
  CHECK(eventually([&] { return srv.uploads() == 0; }));
}

TEST_CASE("http Expect: 100-continue: answered before the body, a refusal costs no upload") {
  server_t srv;
  raw_client_t raw(srv.http->port());
  raw.send(put_head(8, "Expect: 100-continue\r\n"));
  const std::string go_on = raw.read_for("\r\n\r\n");
  CHECK(go_on == "HTTP/1.1 100 Continue\r\n\r\n");
  raw.send("wtns1234");
  const std::string answer = raw.read_until_close();
  CHECK_MESSAGE(contains(answer, "HTTP/1.1 201"), answer);
  // The client streams a file with Expect: over the bound, it sends none of it and returns the
  // server's answer.
  const std::string big = srv.dir.file("big.bin");
  fs::resize_file((write_text(big, "wtns"), big), bound + 1);
  auto c = srv.call("PUT", "/up");
  c.body_file = big;
  uint64_t sent = 0;
  c.on_progress = [&](uint64_t done, uint64_t) { sent = done; };
  auto a = net::http_call(c);
  REQUIRE_MESSAGE(a, a.error());
  CHECK(a->status == 413);
  CHECK(contains(a->body, "scheduler.max_upload (3145728 bytes, 3 MiB)"));
  CHECK(sent == 0);
  // Exactly the bound from a file: streamed, hashed, taken.
  fs::resize_file(big, bound);
  c.body_file = big;
  a = net::http_call(c);
  REQUIRE_MESSAGE(a, a.error());
  CHECK(a->status == 201);
  CHECK(nlohmann::json::parse(a->body)["sha256"] == security::sha256_file_hex(big).value());
  CHECK(sent == bound);
}

TEST_CASE("http answers: a file streamed into a file under its bound, over it, the bound named") {
  server_t srv;
  write_text(srv.served, bytes_of(5 << 20));
  auto c = srv.call("GET", "/file?" + srv.served);
  c.answer_file = srv.dir.file("got.bin");
  c.max_answer_file = 5 << 20;
  auto a = net::http_call(c);
  REQUIRE_MESSAGE(a, a.error());
  CHECK(a->status == 200);
  CHECK(a->file_bytes == 5 << 20);
  CHECK(a->body.empty());
  CHECK(read_text(c.answer_file) == read_text(srv.served));
  c.max_answer_file = (5 << 20) - 1;
  c.answer_file_bound = "scheduler.max_upload";
  a = net::http_call(c);
  REQUIRE_FALSE(a);
  CHECK(a.error() == "127.0.0.1:" + std::to_string(srv.http->port()) +
                         " answered 200 with a body of 5242880 bytes, over this client's bound "
                         "of 5242879 bytes (scheduler.max_upload)");
  // In memory: max_answer.
  c = srv.call("GET", "/file?" + srv.served);
  c.max_answer = 1 << 20;
  a = net::http_call(c);
  REQUIRE_FALSE(a);
  CHECK(contains(a.error(), "over this client's bound of 1048576 bytes"));
  // A header over the server's bound: 400.
  raw_client_t raw(srv.http->port());
  raw.send("GET /file HTTP/1.1\r\nHost: x\r\nX-Long: " + std::string(20000, 'x') + "\r\n\r\n");
  const std::string answer = raw.read_until_close();
  CHECK_MESSAGE(contains(answer, "HTTP/1.1 400"), answer);
  CHECK(contains(answer, "header limit"));
}
