#include "zk/filecoin/api/c1.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "zk/base/base64.hpp"
#include "zk/base/error.hpp"
#include "zk/base/files.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"

namespace zk::filecoin {

namespace {

constexpr uint32_t total_parents = 37;  // stacked/vanilla/proof.rs TOTAL_PARENTS: labels hashed

// --- reading: nlohmann/json's SAX parser, every event checked against the schema ---------------
//
// nlohmann::json::sax_parse tokenizes (RFC 8259 strictly: numbers, escapes, UTF-8; one value, then
// the end) and calls reader_t once per bracket, key and scalar. reader_t keeps a stack of frames,
// one per object or array open, each knowing which node of the schema it is and what it fills,
// and writes c1_output_t as the values come: no DOM (nlohmann's DOM of a 32 GiB C1 takes 5× its
// 38 MB text, the structs 0.7×; bench/README.md "The C1 reader").
//
// Bounded: nlohmann's parser is iterative (one bit of its own stack per open bracket) and a
// bracket the schema does not have at that place is refused at once, so nothing nests deeper than
// the schema's 16 levels (a Top proof's path hash in a parent's column); every array is refused
// past the most elements any registered proof's C1 has (cap_of: 126 partitions, 18 challenges, 31
// path levels, 37 domains, 11 labeling proofs, 8 columns, 32 bytes), so the structs stay within a
// few times the text: at worst ~3×, path elements without hashes (24 bytes of text, 32 of struct,
// vectors up to twice their size); a 44 MB C1 of them takes 55 MB. The one long string is the
// wrapper's Phase1Out, which nlohmann's lexer holds twice while it reads it (its token and the raw
// text for messages): the wrapper's peak is ~4× its text.

// Where the schema is: an object, an array or a scalar of the C1 or the wrapper.
enum class node_t : uint8_t {
  // objects
  document,         // the top level: a C1, or the wrapper (told by its first key)
  c1,               // SealCommitPhase1Output
  wrapper,          // {"SectorNum", "Phase1Out", "SectorSize"}
  variant,          // vanilla_proofs: {"StackedDrg2KiBV1": partitions}, exactly one key
  vanilla,          // a challenge's proof (stacked/vanilla/params.rs Proof)
  merkle,           // MerkleProof: {"data": …}
  merkle_data,      // ProofData, externally tagged: {"Single" | "Sub" | "Top": …}, one key
  single,           // SingleProof {"root", "leaf", "path"}
  sub,              // SubProof {"base_proof", "sub_proof", "root", "leaf"}
  top,              // TopProof {"base_proof", "sub_proof", "top_proof", "root", "leaf"}
  path,             // InclusionPath {"path": [element]}
  path_element,     // PathElement {"hashes", "index"}
  replica_columns,  // ReplicaColumnProof {"c_x", "drg_parents", "exp_parents"}
  column_proof,     // ColumnProof {"column", "inclusion_proof"}
  column,           // Column {"index", "rows", "_h"}
  labeling,         // LabelingProof / EncodingProof {"parents", "layer_index", "node"}
  // arrays
  partitions,     // [partition]
  challenges,     // [proof]
  path_elements,  // [element]
  columns,        // [column proof]
  labelings,      // [labeling proof]
  domains,        // [domain]
  bytes32,        // 32 numbers 0…255
  // scalars
  byte,  // an element of bytes32
  u64,
  u32,
  i64,
  null,
  proof_name,  // registered_proof
  base64,      // Phase1Out
};

bool is_object(node_t n) { return n <= node_t::labeling; }
bool is_array(node_t n) { return n >= node_t::partitions && n <= node_t::bytes32; }

// A value's place in the schema: its node, what it fills, and (an object's field) its key.
struct field_t {
  const char* key;
  node_t node;
  void* target;
};
struct fields_t {
  fields_t(std::initializer_list<field_t> l) : size(l.size()) { std::copy(l.begin(), l.end(), at); }
  field_t at[7];
  size_t size;
};

// The fields of an object node whose values fill `t`: the schema (c1.hpp), a line a key. The
// document's are the C1's or the wrapper's (its first key tells), the variant's is any one key.
fields_t fields(node_t n, void* t) {
  using k = node_t;
  switch (n) {
    case k::c1: {
      auto& c = *static_cast<c1_output_t*>(t);
      return {{"registered_proof", k::proof_name, &c},
              {"vanilla_proofs", k::variant, &c.vanilla_proofs},
              {"comm_r", k::bytes32, &c.comm_r},
              {"comm_d", k::bytes32, &c.comm_d},
              {"replica_id", k::bytes32, &c.replica_id},
              {"seed", k::bytes32, &c.seed},
              {"ticket", k::bytes32, &c.ticket}};
    }
    case k::wrapper: {
      auto& w = *static_cast<c1_wrapper_t*>(t);
      return {{"SectorNum", k::i64, &w.sector_num},
              {"Phase1Out", k::base64, nullptr},
              {"SectorSize", k::u64, &w.sector_size}};
    }
    case k::vanilla: {
      auto& v = *static_cast<vanilla_proof_t*>(t);
      return {{"comm_d_proofs", k::merkle, &v.comm_d_proofs},
              {"comm_r_last_proof", k::merkle, &v.comm_r_last_proof},
              {"replica_column_proofs", k::replica_columns, &v.replica_column_proofs},
              {"labeling_proofs", k::labelings, &v.labeling_proofs},
              {"encoding_proof", k::labeling, &v.encoding_proof}};
    }
    case k::merkle:
      return {{"data", k::merkle_data, t}};
    case k::merkle_data:  // merkle_kind_t's order
      return {{"Single", k::single, t}, {"Sub", k::sub, t}, {"Top", k::top, t}};
    case k::single: {
      auto& m = *static_cast<merkle_proof_t*>(t);
      return {
          {"root", k::bytes32, &m.root}, {"leaf", k::bytes32, &m.leaf}, {"path", k::path, &m.base}};
    }
    case k::sub: {
      auto& m = *static_cast<merkle_proof_t*>(t);
      return {{"base_proof", k::path, &m.base},
              {"sub_proof", k::path, &m.sub},
              {"root", k::bytes32, &m.root},
              {"leaf", k::bytes32, &m.leaf}};
    }
    case k::top: {
      auto& m = *static_cast<merkle_proof_t*>(t);
      return {{"base_proof", k::path, &m.base},
              {"sub_proof", k::path, &m.sub},
              {"top_proof", k::path, &m.top},
              {"root", k::bytes32, &m.root},
              {"leaf", k::bytes32, &m.leaf}};
    }
    case k::path:
      return {{"path", k::path_elements, t}};
    case k::path_element: {
      auto& e = *static_cast<path_element_t*>(t);
      return {{"hashes", k::domains, &e.hashes}, {"index", k::u64, &e.index}};
    }
    case k::replica_columns: {
      auto& r = *static_cast<replica_column_proof_t*>(t);
      return {{"c_x", k::column_proof, &r.c_x},
              {"drg_parents", k::columns, &r.drg_parents},
              {"exp_parents", k::columns, &r.exp_parents}};
    }
    case k::column_proof: {
      auto& c = *static_cast<column_proof_t*>(t);
      return {{"column", k::column, &c.column}, {"inclusion_proof", k::merkle, &c.inclusion_proof}};
    }
    case k::column: {
      auto& c = *static_cast<column_t*>(t);
      return {{"index", k::u32, &c.index}, {"rows", k::domains, &c.rows}, {"_h", k::null, nullptr}};
    }
    case k::labeling: {
      auto& l = *static_cast<labeling_proof_t*>(t);
      return {{"parents", k::domains, &l.parents},
              {"layer_index", k::u32, &l.layer_index},
              {"node", k::u64, &l.node}};
    }
    default:  // document, variant
      return {};
  }
}

// What the key of a one-key object is.
const char* one_key(node_t n) {
  return n == node_t::variant ? "the sector size's variant (e.g. StackedDrg2KiBV1)"
                              : "Single, Sub or Top";
}

// "expected …" of a node.
const char* expected(node_t n) {
  switch (n) {
    case node_t::variant:
    case node_t::merkle_data:
      return "an object with one key";
    case node_t::bytes32:
      return "an array of 32 bytes";
    case node_t::byte:
      return "a byte (0 to 255)";
    case node_t::u64:
    case node_t::u32:
      return "a non-negative integer";
    case node_t::i64:
      return "an integer";
    case node_t::null:
      return "null";
    case node_t::proof_name:
      return "a string (a registered proof's name)";
    case node_t::base64:
      return "a string (base64)";
    default:
      return is_object(n) ? "an object" : "an array";
  }
}

// The most elements an array node may have: the most any registered proof's C1 has, from the
// registry once (the exact counts are validate()'s, when the registered proof is known).
uint32_t cap_of(node_t n) {
  constexpr size_t first = size_t(node_t::partitions), count = size_t(node_t::bytes32) + 1 - first;
  static const std::array<uint32_t, count> caps = [] {
    std::array<uint32_t, count> c{};
    auto cap = [&](node_t a) -> uint32_t& { return c[size_t(a) - first]; };
    cap(node_t::columns) = std::max(drg_degree, exp_degree);
    cap(node_t::domains) = total_parents;
    cap(node_t::bytes32) = 32;
    for (const registered_proof_t& p : registered_proofs()) {
      const c1_shape_t s = c1_shape(p);
      cap(node_t::partitions) = std::max(cap(node_t::partitions), s.partitions);
      cap(node_t::challenges) = std::max(cap(node_t::challenges), s.challenges);
      cap(node_t::path_elements) =
          std::max({cap(node_t::path_elements), s.comm_d_path, s.base_path});
      cap(node_t::labelings) = std::max(cap(node_t::labelings), s.layers);
      cap(node_t::domains) = std::max(cap(node_t::domains), s.layers);  // a column's rows
      for (const uint32_t arity : {s.tree.base_arity, s.tree.sub_arity, s.tree.top_arity})
        if (arity > 1) cap(node_t::domains) = std::max(cap(node_t::domains), arity - 1);
    }
    return c;
  }();
  return caps[size_t(n) - first];
}

// A string of the input quoted for a message, cut to 40 bytes.
std::string cut_quoted(std::string_view s) {
  return '"' + std::string(s.substr(0, 40)) + (s.size() > 40 ? "…\"" : "\"");
}

// The text as nlohmann's parser reads it, one character at a time, leaving the address of the
// next one in *at: the byte offset that an error found in a SAX callback names (the parser tells
// its position only to parse_error).
class tracked_iterator_t {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  tracked_iterator_t(const char* p, const char** at) : p_(p), at_(at) {}
  reference operator*() const { return *p_; }
  tracked_iterator_t& operator++() {
    *at_ = ++p_;
    return *this;
  }
  bool operator==(const tracked_iterator_t& o) const { return p_ == o.p_; }
  bool operator!=(const tracked_iterator_t& o) const { return p_ != o.p_; }

 private:
  const char* p_;
  const char** at_;
};

// The SAX handler (nlohmann's json_sax interface, called statically by sax_parse) for one
// document: the C1, or (wrapper_allowed) the wrapper, whose Phase1Out read() decodes and reads
// as a C1 in turn.
class reader_t {
 public:
  reader_t(std::string_view text, std::string_view file, bool wrapper_allowed)
      : text_(text), file_(file), wrapper_allowed_(wrapper_allowed), at_(text.data()) {}

  // Reads the whole text; format_error naming the file, the JSON path and the byte otherwise.
  void read() {
    // serde_json and Go's encoding/json refuse a byte order mark; nlohmann would skip it.
    if (text_.substr(0, 3) == "\xef\xbb\xbf") fail("a byte order mark (not JSON)");
    const char* const begin = text_.data();
    try {
      nlohmann::json::sax_parse(tracked_iterator_t(begin, &at_),
                                tracked_iterator_t(begin + text_.size(), &at_), this);
    } catch (const nlohmann::json::exception& e) {  // none expected: parse_error() reports
      fail(std::string("invalid JSON: ") + e.what());
    }
  }

  c1_output_t& c1() { return c1_; }
  const std::optional<c1_wrapper_t>& wrapper() const { return wrapper_; }
  std::string& phase1out() { return phase1out_; }
  size_t phase1out_byte() const { return phase1out_byte_; }
  const std::string& variant() const { return variant_; }

  // --- nlohmann's SAX interface: true to go on; every refusal throws ---
  bool null() {
    const field_t s = begin_value();
    if (s.node != node_t::null) refuse(s, "null");
    end_value();
    return true;
  }
  bool boolean(bool v) { refuse(begin_value(), v ? "true" : "false"); }
  // A number without a sign, fraction or exponent below 2^64 (nlohmann: number_unsigned).
  bool number_unsigned(uint64_t v) {
    if (!stack_.empty() && stack_.back().node == node_t::bytes32) {  // the hot path: every hash
      frame_t& f = stack_.back();
      if (f.count == 32 || v > 255) {
        begin_value();  // refuses a 33rd; else the element's path for the message
        fail(std::to_string(v) + " is not a byte (0 to 255)");
      }
      (*static_cast<bytes32_t*>(f.target))[f.count++] = uint8_t(v);
      return true;
    }
    const field_t s = begin_value();
    switch (s.node) {
      case node_t::u64:
        *static_cast<uint64_t*>(s.target) = v;
        break;
      case node_t::u32:
        if (v > UINT32_MAX) fail(std::to_string(v) + " does not fit 32 bits");
        *static_cast<uint32_t*>(s.target) = uint32_t(v);
        break;
      case node_t::i64:
        if (v > uint64_t(INT64_MAX)) fail("an integer above 2^63 - 1");
        *static_cast<int64_t*>(s.target) = int64_t(v);
        break;
      default:
        refuse(s, "a number");
    }
    end_value();
    return true;
  }
  // A negative integer from −2^63 (nlohmann: number_integer).
  bool number_integer(int64_t v) {
    const field_t s = begin_value();
    if (s.node != node_t::i64) refuse(s, std::to_string(v));
    *static_cast<int64_t*>(s.target) = v;
    end_value();
    return true;
  }
  // A fraction, an exponent, or an integer outside [−2^63, 2^64) (nlohmann: number_float, with
  // the number's text).
  bool number_float(double, const std::string& text) {
    const field_t s = begin_value();
    const std::string shown = text.substr(0, 40) + (text.size() > 40 ? "…" : "");
    if (text.find_first_of(".eE") != std::string::npos)
      refuse(s, "a fraction or an exponent (" + shown + ")");
    switch (s.node) {
      case node_t::i64:
        fail(text[0] == '-' ? "an integer below -2^63" : "an integer above 2^63 - 1");
      case node_t::byte:
      case node_t::u64:
      case node_t::u32:
        if (text[0] == '-') refuse(s, shown);
        fail(s.node == node_t::byte ? shown + " is not a byte (0 to 255)"
                                    : "a non-negative integer above 2^64 - 1");
      default:
        refuse(s, "a number");
    }
  }
  bool string(std::string& v) {
    const field_t s = begin_value();
    if (s.node == node_t::proof_name) {
      if (v.size() > 64) fail("unknown registered seal proof " + cut_quoted(v));
      try {
        static_cast<c1_output_t*>(s.target)->registered_proof = &registered_proof(v);
      } catch (const std::invalid_argument& e) {
        fail(e.what());
      }
    } else if (s.node == node_t::base64) {
      // Decoded once the parse is over: its lexer's copies of the string are gone by then.
      phase1out_ = std::move(v);
      phase1out_byte_ = position();
    } else {
      refuse(s, "a string");
    }
    end_value();
    return true;
  }
  bool binary(nlohmann::json::binary_t&) {  // only the binary formats have it
    refuse(begin_value(), "binary data");
  }
  bool start_object(size_t) {
    const field_t s = begin_value();
    if (!is_object(s.node)) refuse(s, "an object");
    stack_.push_back(frame_t{s.node, s.target});
    return true;
  }
  bool key(std::string& k) {
    frame_t& f = stack_.back();
    if (f.node == node_t::document) {  // the wrapper's keys are not the C1's: the first tells
      const bool w = k == "SectorNum" || k == "Phase1Out" || k == "SectorSize";
      f.node = w ? node_t::wrapper : node_t::c1;
      if (w) f.target = &wrapper_.emplace();
    }
    const bool one = f.node == node_t::variant || f.node == node_t::merkle_data;
    if (one && f.seen) fail(std::string("more than one key: expected one, ") + one_key(f.node));
    size_t i = 0;
    if (f.node == node_t::variant) {
      variant_ = k.size() > 40 ? cut_quoted(k) : k;  // quoted: never a variant's name
    } else {
      const fields_t fs = fields(f.node, f.target);
      while (i < fs.size && k != fs.at[i].key) ++i;
      if (i == fs.size && one)
        fail("unknown proof kind " + cut_quoted(k) + " (expected Single, Sub or Top)");
      if (i == fs.size) {
        std::string list;
        for (size_t j = 0; j < fs.size; ++j) list += (j ? ", " : "") + std::string(fs.at[j].key);
        fail("unknown key " + cut_quoted(k) + " (expected " + list + ")");
      }
      if (f.seen & (1u << i)) fail("key " + cut_quoted(k) + " given twice");
      if (f.node == node_t::merkle_data)
        static_cast<merkle_proof_t*>(f.target)->kind = merkle_kind_t(i);
    }
    f.seen |= 1u << i;
    f.key = int8_t(i);
    f.open = true;
    return true;
  }
  bool end_object() {
    frame_t& f = stack_.back();
    if (f.node == node_t::document) f.node = node_t::c1;  // {}: a C1 without its keys
    if (f.node == node_t::variant || f.node == node_t::merkle_data) {
      if (!f.seen) fail(std::string("expected one key: ") + one_key(f.node));
    } else {
      const fields_t fs = fields(f.node, f.target);
      for (size_t i = 0; i < fs.size; ++i)
        if (!(f.seen & (1u << i))) fail(std::string("missing key \"") + fs.at[i].key + "\"");
    }
    stack_.pop_back();
    end_value();
    return true;
  }
  bool start_array(size_t) {
    const field_t s = begin_value();
    if (!is_array(s.node)) refuse(s, "an array");
    stack_.push_back(frame_t{s.node, s.target});
    return true;
  }
  bool end_array() {
    const frame_t& f = stack_.back();
    if (f.node == node_t::bytes32 && f.count != 32)
      fail("expected 32 bytes, got " + std::to_string(f.count));
    stack_.pop_back();
    end_value();
    return true;
  }
  // nlohmann's own refusals, said as the reader's: "<file>: <path>: <what> (byte N)".
  bool parse_error(size_t byte, const std::string& token, const nlohmann::json::exception& e) {
    if (done_) fail_at(byte, "text after the end of the JSON value");
    if (e.id == 406) fail_at(byte, "a number out of range (" + token.substr(0, 40) + ")");
    // e.what(): "[json.exception.parse_error.101] parse error at line 1, column 9: syntax error
    // while parsing value - invalid literal; last read: '<token>'; expected …": the part after
    // " - ", with the token cut short (it can be a whole unterminated string).
    std::string what = e.what();
    const size_t dash = what.find(" - ");
    if (dash != std::string::npos) what.erase(0, dash + 3);
    const std::string last = "; last read: '";
    const size_t at = what.find(last);
    if (at != std::string::npos && token.size() > 40 &&
        what.compare(at + last.size(), token.size(), token) == 0)
      what.replace(at + last.size(), token.size(), token.substr(0, 40) + "…");
    fail_at(byte, what);
  }

 private:
  struct frame_t {
    node_t node;
    void* target;        // what the values go into, typed by node
    uint32_t count = 0;  // array: the elements begun
    uint32_t seen = 0;   // object: bit i, key i given
    int8_t key = -1;     // object: the key last read
    bool open = false;   // a value of this frame (key's or element) is being read
  };

  // The value that begins now: the document, the value of the top object's key, or the top
  // array's next element.
  field_t begin_value() {
    if (stack_.empty()) return {"", wrapper_allowed_ ? node_t::document : node_t::c1, &c1_};
    frame_t& f = stack_.back();
    if (f.node == node_t::variant) return {"", node_t::partitions, f.target};
    if (!is_array(f.node)) return fields(f.node, f.target).at[f.key];
    if (f.count == cap_of(f.node))
      fail(f.node == node_t::bytes32 ? "expected 32 bytes, got more"
                                     : "more than " + std::to_string(f.count) +
                                           " elements: no registered proof has more");
    ++f.count;
    f.open = true;
    if (f.node == node_t::bytes32) return {"", node_t::byte, f.target};
    return element(f);
  }
  void end_value() {
    if (stack_.empty())
      done_ = true;
    else
      stack_.back().open = false;
  }

  // A new element at the end of the array f fills, and its slot.
  template <class T>
  static T* grow(void* vec) {
    return &static_cast<std::vector<T>*>(vec)->emplace_back();
  }
  static field_t element(const frame_t& f) {
    switch (f.node) {
      case node_t::partitions:
        return {"", node_t::challenges, grow<std::vector<vanilla_proof_t>>(f.target)};
      case node_t::challenges:
        return {"", node_t::vanilla, grow<vanilla_proof_t>(f.target)};
      case node_t::path_elements:
        return {"", node_t::path_element, grow<path_element_t>(f.target)};
      case node_t::columns:
        return {"", node_t::column_proof, grow<column_proof_t>(f.target)};
      case node_t::labelings:
        return {"", node_t::labeling, grow<labeling_proof_t>(f.target)};
      default:  // domains
        return {"", node_t::bytes32, grow<domain_t>(f.target)};
    }
  }

  [[noreturn]] void refuse(const field_t& s, const std::string& found) const {
    fail(std::string("expected ") + expected(s.node) + ", found " + found);
  }

  size_t position() const { return size_t(at_ - text_.data()); }
  [[noreturn]] void fail(const std::string& what) const { fail_at(position(), what); }
  // "(byte N)": N bytes read when the reader stopped (nlohmann counts a read of the end too).
  [[noreturn]] void fail_at(size_t byte, const std::string& what) const {
    byte = std::min(byte, text_.size());
    std::string msg(file_);
    msg += ": ";
    const std::string p = path();
    if (!p.empty()) msg += p + ": ";
    msg += what + " (byte " + std::to_string(byte) + ")";
    throw format_error(msg);
  }
  // The JSON path of the value being read: each frame's open key or element.
  std::string path() const {
    std::string p;
    for (const frame_t& f : stack_) {
      if (!f.open) break;
      if (is_array(f.node)) {
        p += '[' + std::to_string(f.count - 1) + ']';
        continue;
      }
      if (!p.empty()) p += '.';
      p += f.node == node_t::variant ? variant_ : fields(f.node, f.target).at[f.key].key;
    }
    return p;
  }

  std::string_view text_;
  std::string_view file_;
  bool wrapper_allowed_;
  const char* at_;              // the parser's position (tracked_iterator_t)
  std::vector<frame_t> stack_;  // at most the schema's 16 levels
  bool done_ = false;           // the document's value is complete
  c1_output_t c1_;
  std::optional<c1_wrapper_t> wrapper_;
  std::string phase1out_;  // the wrapper's, still base64
  size_t phase1out_byte_ = 0;
  std::string variant_;  // vanilla_proofs' key
};

// --- validation --------------------------------------------------------------------------------

// Paths for validate_c1's messages, built as the reader builds them.
class where_t {
 public:
  explicit where_t(std::string base) : s_(std::move(base)) {}
  where_t key(std::string_view k) const {
    return where_t(s_.empty() ? std::string(k) : s_ + "." + std::string(k));
  }
  where_t index(size_t i) const { return where_t(s_ + "[" + std::to_string(i) + "]"); }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument(s_.empty() ? what : s_ + ": " + what);
  }
  const std::string& str() const { return s_; }

 private:
  std::string s_;
};

void check_field(const domain_t& d, const where_t& w) {
  if (!fr_from_bytes(d)) w.fail("value not below the field modulus");
}
void check_domains(const std::vector<domain_t>& v, size_t count, const where_t& w,
                   const char* what) {
  if (v.size() != count)
    w.fail("expected " + std::to_string(count) + " " + what + ", got " + std::to_string(v.size()));
  for (size_t i = 0; i < v.size(); ++i) check_field(v[i], w.index(i));
}

void check_path(const inclusion_path_t& p, uint32_t length, uint32_t arity, const where_t& w) {
  const where_t wp = w.key("path");
  if (p.size() != length)
    wp.fail("expected a path of " + std::to_string(length) + " level" + (length == 1 ? "" : "s") +
            ", got " + std::to_string(p.size()));
  for (size_t i = 0; i < p.size(); ++i) {
    const where_t we = wp.index(i);
    check_domains(p[i].hashes, arity - 1, we.key("hashes"),
                  arity == 2 ? "sibling hash" : "sibling hashes");
    if (p[i].index >= arity)
      we.key("index").fail(std::to_string(p[i].index) + " is not a position among " +
                           std::to_string(arity) + " siblings");
  }
}

void check_merkle(const merkle_proof_t& m, const tree_shape_t& shape, uint32_t base_path,
                  const where_t& w) {
  const merkle_kind_t want = shape.top_arity   ? merkle_kind_t::top
                             : shape.sub_arity ? merkle_kind_t::sub
                                               : merkle_kind_t::single;
  static const char* const names[] = {"Single", "Sub", "Top"};
  const where_t wd = w.key("data");
  if (m.kind != want)
    wd.fail(std::string("a ") + names[int(m.kind)] + " proof where tree shape " +
            tree_shape_name(shape) + " needs " + names[int(want)]);
  const where_t wk = wd.key(names[int(m.kind)]);
  check_field(m.root, wk.key("root"));
  check_field(m.leaf, wk.key("leaf"));
  if (m.kind == merkle_kind_t::single) {
    check_path(m.base, base_path, shape.base_arity, wk.key("path"));
    return;
  }
  check_path(m.base, base_path, shape.base_arity, wk.key("base_proof"));
  check_path(m.sub, 1, shape.sub_arity, wk.key("sub_proof"));
  if (m.kind == merkle_kind_t::top) check_path(m.top, 1, shape.top_arity, wk.key("top_proof"));
}

void check_column(const column_proof_t& c, const c1_shape_t& s, uint64_t nodes, const where_t& w) {
  const where_t wc = w.key("column");
  if (c.column.index >= nodes)
    wc.key("index").fail("node " + std::to_string(c.column.index) + " of a " +
                         std::to_string(nodes) + "-node sector");
  check_domains(c.column.rows, s.layers, wc.key("rows"), "rows (one a layer)");
  check_merkle(c.inclusion_proof, s.tree, s.base_path, w.key("inclusion_proof"));
}

void check_labeling(const labeling_proof_t& l, uint32_t layer, uint64_t nodes, const where_t& w) {
  check_domains(l.parents, total_parents, w.key("parents"), "parent labels");
  if (l.layer_index != layer)
    w.key("layer_index")
        .fail("layer " + std::to_string(l.layer_index) + " where " + std::to_string(layer) +
              " belongs");
  if (l.node >= nodes)
    w.key("node").fail("node " + std::to_string(l.node) + " of a " + std::to_string(nodes) +
                       "-node sector");
}

void check_vanilla(const vanilla_proof_t& v, const c1_shape_t& s, uint64_t nodes,
                   const where_t& w) {
  const tree_shape_t binary{2, 0, 0};
  check_merkle(v.comm_d_proofs, binary, s.comm_d_path, w.key("comm_d_proofs"));
  check_merkle(v.comm_r_last_proof, s.tree, s.base_path, w.key("comm_r_last_proof"));
  const where_t wr = w.key("replica_column_proofs");
  const auto& r = v.replica_column_proofs;
  check_column(r.c_x, s, nodes, wr.key("c_x"));
  if (r.drg_parents.size() != drg_degree)
    wr.key("drg_parents")
        .fail("expected " + std::to_string(drg_degree) + " column proofs, got " +
              std::to_string(r.drg_parents.size()));
  for (size_t i = 0; i < r.drg_parents.size(); ++i)
    check_column(r.drg_parents[i], s, nodes, wr.key("drg_parents").index(i));
  if (r.exp_parents.size() != exp_degree)
    wr.key("exp_parents")
        .fail("expected " + std::to_string(exp_degree) + " column proofs, got " +
              std::to_string(r.exp_parents.size()));
  for (size_t i = 0; i < r.exp_parents.size(); ++i)
    check_column(r.exp_parents[i], s, nodes, wr.key("exp_parents").index(i));
  if (v.labeling_proofs.size() != s.layers)
    w.key("labeling_proofs")
        .fail("expected " + std::to_string(s.layers) + " labeling proofs (one a layer), got " +
              std::to_string(v.labeling_proofs.size()));
  for (size_t i = 0; i < v.labeling_proofs.size(); ++i)
    check_labeling(v.labeling_proofs[i], uint32_t(i + 1), nodes, w.key("labeling_proofs").index(i));
  check_labeling(v.encoding_proof, s.layers, nodes, w.key("encoding_proof"));
}

void validate(const c1_output_t& c1, const where_t& root) {
  if (c1.registered_proof == nullptr) root.key("registered_proof").fail("not set");
  const registered_proof_t& p = *c1.registered_proof;
  const c1_shape_t s = c1_shape(p);
  const uint64_t nodes = p.sector_size / 32;
  const where_t wv = root.key("vanilla_proofs").key(p.vanilla_variant);
  if (c1.vanilla_proofs.size() != s.partitions)
    wv.fail(std::string(p.name) + " has " + std::to_string(s.partitions) + " partition" +
            (s.partitions == 1 ? "" : "s") + ", got " + std::to_string(c1.vanilla_proofs.size()));
  for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    const where_t wk = wv.index(k);
    if (c1.vanilla_proofs[k].size() != s.challenges)
      wk.fail("expected " + std::to_string(s.challenges) + " challenge proofs, got " +
              std::to_string(c1.vanilla_proofs[k].size()));
    for (size_t i = 0; i < c1.vanilla_proofs[k].size(); ++i)
      check_vanilla(c1.vanilla_proofs[k][i], s, nodes, wk.index(i));
  }
  check_field(c1.comm_r, root.key("comm_r"));
  check_field(c1.comm_d, root.key("comm_d"));
  check_field(c1.replica_id, root.key("replica_id"));
}

// --- the schema, written (serde_json's compact form: struct fields in declaration order) --------

class json_out_t {
 public:
  explicit json_out_t(size_t reserve) { s_.reserve(reserve); }
  json_out_t& raw(std::string_view t) {
    s_.append(t);
    return *this;
  }
  json_out_t& num(uint64_t v) {
    char b[24];
    const int n = std::snprintf(b, sizeof b, "%llu", static_cast<unsigned long long>(v));
    s_.append(b, size_t(n));
    return *this;
  }
  json_out_t& bytes(const bytes32_t& d) {
    static const auto table = [] {
      std::array<std::string, 256> t;
      for (int i = 0; i < 256; ++i) t[size_t(i)] = std::to_string(i);
      return t;
    }();
    s_ += '[';
    for (size_t i = 0; i < 32; ++i) {
      if (i) s_ += ',';
      s_ += table[d[i]];
    }
    s_ += ']';
    return *this;
  }
  json_out_t& domains(const std::vector<domain_t>& v) {
    s_ += '[';
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) s_ += ',';
      bytes(v[i]);
    }
    s_ += ']';
    return *this;
  }
  std::string take() { return std::move(s_); }

 private:
  std::string s_;
};

void write_path(json_out_t& o, const inclusion_path_t& p) {
  o.raw("{\"path\":[");
  for (size_t i = 0; i < p.size(); ++i) {
    if (i) o.raw(",");
    o.raw("{\"hashes\":").domains(p[i].hashes).raw(",\"index\":").num(p[i].index).raw("}");
  }
  o.raw("]}");
}

void write_merkle(json_out_t& o, const merkle_proof_t& m) {
  switch (m.kind) {
    case merkle_kind_t::single:
      o.raw("{\"data\":{\"Single\":{\"root\":").bytes(m.root).raw(",\"leaf\":").bytes(m.leaf);
      o.raw(",\"path\":");
      write_path(o, m.base);
      o.raw("}}}");
      return;
    case merkle_kind_t::sub:
      o.raw("{\"data\":{\"Sub\":{\"base_proof\":");
      write_path(o, m.base);
      o.raw(",\"sub_proof\":");
      write_path(o, m.sub);
      break;
    case merkle_kind_t::top:
      o.raw("{\"data\":{\"Top\":{\"base_proof\":");
      write_path(o, m.base);
      o.raw(",\"sub_proof\":");
      write_path(o, m.sub);
      o.raw(",\"top_proof\":");
      write_path(o, m.top);
      break;
  }
  o.raw(",\"root\":").bytes(m.root).raw(",\"leaf\":").bytes(m.leaf).raw("}}}");
}

void write_column(json_out_t& o, const column_proof_t& c) {
  o.raw("{\"column\":{\"index\":").num(c.column.index).raw(",\"rows\":").domains(c.column.rows);
  o.raw(",\"_h\":null},\"inclusion_proof\":");
  write_merkle(o, c.inclusion_proof);
  o.raw("}");
}

void write_columns(json_out_t& o, const std::vector<column_proof_t>& v) {
  o.raw("[");
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) o.raw(",");
    write_column(o, v[i]);
  }
  o.raw("]");
}

void write_labeling(json_out_t& o, const labeling_proof_t& l) {
  o.raw("{\"parents\":").domains(l.parents).raw(",\"layer_index\":").num(l.layer_index);
  o.raw(",\"node\":").num(l.node).raw("}");
}

void write_vanilla(json_out_t& o, const vanilla_proof_t& v) {
  o.raw("{\"comm_d_proofs\":");
  write_merkle(o, v.comm_d_proofs);
  o.raw(",\"comm_r_last_proof\":");
  write_merkle(o, v.comm_r_last_proof);
  o.raw(",\"replica_column_proofs\":{\"c_x\":");
  write_column(o, v.replica_column_proofs.c_x);
  o.raw(",\"drg_parents\":");
  write_columns(o, v.replica_column_proofs.drg_parents);
  o.raw(",\"exp_parents\":");
  write_columns(o, v.replica_column_proofs.exp_parents);
  o.raw("},\"labeling_proofs\":[");
  for (size_t i = 0; i < v.labeling_proofs.size(); ++i) {
    if (i) o.raw(",");
    write_labeling(o, v.labeling_proofs[i]);
  }
  o.raw("],\"encoding_proof\":");
  write_labeling(o, v.encoding_proof);
  o.raw("}");
}

// The checks once a C1 is read: its variant and everything validate() checks.
c1_output_t finish_c1(reader_t& r, std::string_view file) {
  c1_output_t& c1 = r.c1();
  const registered_proof_t& p = *c1.registered_proof;  // the reader requires the key
  if (r.variant() != p.vanilla_variant)
    throw_file_error(file, "vanilla_proofs: variant \"" + r.variant() + "\" where " +
                               std::string(p.name) + " needs \"" + std::string(p.vanilla_variant) +
                               "\"");
  try {
    validate(c1, where_t(""));
  } catch (const std::invalid_argument& e) {
    throw_file_error(file, e.what());
  }
  return std::move(c1);
}

}  // namespace

c1_shape_t c1_shape(const registered_proof_t& p) {
  const porep_config_t c = porep_config(p);
  c1_shape_t s;
  s.partitions = c.partitions;
  s.challenges = c.challenges_per_partition;
  s.layers = c.layers;
  s.tree = c.shape;
  for (uint64_t n = c.nodes; n > 1; n >>= 1) ++s.comm_d_path;
  uint64_t base_leaves = c.nodes / (s.tree.sub_arity ? s.tree.sub_arity : 1) /
                         (s.tree.top_arity ? s.tree.top_arity : 1);
  for (; base_leaves > 1; base_leaves /= s.tree.base_arity) ++s.base_path;
  return s;
}

void validate_c1(const c1_output_t& c1) { validate(c1, where_t("")); }

c1_read_t parse_c1(std::string_view json, std::string_view file) {
  c1_read_t out;
  reader_t outer(json, file, true);
  outer.read();
  if (!outer.wrapper()) {
    out.c1 = finish_c1(outer, file);
    return out;
  }
  // The wrapper: its Phase1Out decoded, then read as a C1 named "<file> (Phase1Out)".
  std::string inner;
  {
    std::optional<std::string> decoded = base64_decode(outer.phase1out());
    if (!decoded)
      throw_file_error(file, "Phase1Out: not standard padded base64 (byte " +
                                 std::to_string(outer.phase1out_byte()) + ")");
    inner = std::move(*decoded);
    std::string().swap(outer.phase1out());
  }
  const std::string inner_name = std::string(file) + " (Phase1Out)";
  reader_t r(inner, inner_name, false);
  r.read();
  out.c1 = finish_c1(r, inner_name);
  const c1_wrapper_t w = *outer.wrapper();
  if (w.sector_size != out.c1.registered_proof->sector_size)
    throw_file_error(file, "SectorSize: " + std::to_string(w.sector_size) + " where " +
                               std::string(out.c1.registered_proof->name) + " has " +
                               std::to_string(out.c1.registered_proof->sector_size));
  out.wrapper = w;
  return out;
}

c1_read_t read_c1_file(const std::string& path) { return parse_c1(read_text(path), path); }

std::string write_c1_json(const c1_output_t& c1) {
  if (c1.registered_proof == nullptr) throw std::invalid_argument("C1: registered_proof not set");
  size_t domains = 0;
  for (const auto& part : c1.vanilla_proofs)
    for (const auto& v : part)
      domains += 64 + v.labeling_proofs.size() * total_parents +
                 (1 + v.replica_column_proofs.drg_parents.size() +
                  v.replica_column_proofs.exp_parents.size()) *
                     64;
  json_out_t o(domains * 130 + 4096);
  const registered_proof_t& p = *c1.registered_proof;
  o.raw("{\"registered_proof\":\"").raw(p.name).raw("\",\"vanilla_proofs\":{\"");
  o.raw(p.vanilla_variant).raw("\":[");
  for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    if (k) o.raw(",");
    o.raw("[");
    for (size_t i = 0; i < c1.vanilla_proofs[k].size(); ++i) {
      if (i) o.raw(",");
      write_vanilla(o, c1.vanilla_proofs[k][i]);
    }
    o.raw("]");
  }
  o.raw("]},\"comm_r\":").bytes(c1.comm_r).raw(",\"comm_d\":").bytes(c1.comm_d);
  o.raw(",\"replica_id\":").bytes(c1.replica_id).raw(",\"seed\":").bytes(c1.seed);
  o.raw(",\"ticket\":").bytes(c1.ticket).raw("}");
  return o.take();
}

std::string write_c1_wrapper_json(const c1_output_t& c1, int64_t sector_num) {
  const std::string inner = write_c1_json(c1);
  std::string out = "{\"SectorNum\":" + std::to_string(sector_num) + ",\"Phase1Out\":\"";
  out += base64_encode(reinterpret_cast<const uint8_t*>(inner.data()), inner.size());
  out += "\",\"SectorSize\":" + std::to_string(c1.registered_proof->sector_size) + "}";
  return out;
}

sector_ids_t sector_ids_of(const c1_output_t& c1, const bytes32_t& prover_id, uint64_t sector) {
  sector_ids_t ids;
  ids.prover_id = prover_id;
  ids.sector = sector;
  ids.ticket = c1.ticket;
  ids.seed = c1.seed;
  ids.comm_d = c1.comm_d;
  ids.comm_r = c1.comm_r;
  return ids;
}

}  // namespace zk::filecoin
