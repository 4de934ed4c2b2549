// The progress line (common/util/progress.hpp): what it says (amounts, rate, time left, the bar)
// and that it stays quiet when its stream is not a terminal.
#include "common/util/progress.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "tests/test_util.hpp"

using namespace zk::util;
using zk::test::read_text;
using zk::test::temp_dir_t;

TEST_CASE("render_progress: amounts, rate, ETA and the bar") {
  CHECK(
      render_progress("uploading w.wtns", 512ull << 20, 1ull << 30, 4.0, progress_unit_t::bytes) ==
      "uploading w.wtns [##########..........] 512.0 MiB / 1.0 GiB  128.0 MiB/s  ETA 4 s");
  CHECK(render_progress("uploading w.wtns", 1ull << 30, 1ull << 30, 8.0, progress_unit_t::bytes) ==
        "uploading w.wtns [####################] 1.0 GiB / 1.0 GiB  128.0 MiB/s  in 8 s");
  CHECK(render_progress("awaiting job 3f9c0e5b", 3, 12, 90.0, progress_unit_t::proofs) ==
        "awaiting job 3f9c0e5b [#####...............] 3 / 12 proofs  0.03/s  ETA 4:30");
  // Unknown total: no bar, no ETA; nothing yet: no ETA either.
  CHECK(render_progress("x", 1000, 0, 1.0, progress_unit_t::bytes) == "x 1000 B  1000 B/s");
  CHECK(render_progress("x", 0, 10, 1.0, progress_unit_t::proofs) ==
        "x [....................] 0 / 10 proofs  0.00/s");
  CHECK(render_progress("x", 1, 100000, 1.0, progress_unit_t::proofs).find("ETA 27:46:39") !=
        std::string::npos);
  CHECK(render_progress(std::string(200, 'l'), 1, 2, 1.0, progress_unit_t::bytes).size() == 100);
}

TEST_CASE("progress_bar_t: quiet when its stream is not a terminal") {
  temp_dir_t d("zk_progress");
  const std::string path = d.file("out.txt");
  std::FILE* f = std::fopen(path.c_str(), "w");
  REQUIRE(f);
  {
    progress_bar_t bar("uploading", 100, progress_unit_t::bytes, f, std::chrono::milliseconds(0));
    CHECK_FALSE(bar.active());
    for (int i = 0; i <= 100; ++i) bar.update(i);
    bar.finish();
    CHECK_FALSE(bar.drawn());
  }
  std::fclose(f);
  CHECK(read_text(path).empty());
}
