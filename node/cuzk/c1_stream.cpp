#include "node/cuzk/c1_stream.hpp"

namespace zk::node::cuzk {

namespace {

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
constexpr size_t piece_bytes = 1 << 20;  // base64 decoded and handed on at a time

}  // namespace

check_t c1_stream_t::refuse(const std::string& why) const {
  return "vanilla_proof: byte " + std::to_string(pos_) + ": " + why;
}

check_t c1_stream_t::flush() {
  if (out_.empty()) return {};
  check_t c = sink_(out_);
  out_.clear();
  return c;
}

check_t c1_stream_t::feed(std::string_view piece) {
  if (mode_ == mode_t::raw) return pos_ += piece.size(), sink_(piece);
  for (size_t i = 0; i < piece.size(); ++i) {
    if (mode_ == mode_t::raw) {  // decided inside this piece: the rest goes as it came
      pos_ += piece.size() - i;
      return sink_(piece.substr(i));
    }
    // Phase1Out's base64 in runs of at most piece_bytes, each decoded and handed on at once.
    while (at_ == at_t::base64 && i < piece.size() && piece[i] != '"' && piece[i] != '\\') {
      size_t j = i;
      while (j < piece.size() && j - i < piece_bytes && piece[j] != '"' && piece[j] != '\\') ++j;
      if (!b64_.feed(piece.substr(i, j - i), out_))
        return "vanilla_proof: Phase1Out: not standard padded base64 (its byte " +
               std::to_string(b64_.position()) + ")";
      pos_ += j - i;
      i = j;
      if (check_t c = flush(); !c) return c;
    }
    if (i == piece.size()) break;
    if (check_t c = step(piece[i]); !c) return c;
    ++pos_;
  }
  return {};
}

check_t c1_stream_t::step(char c) {
  switch (at_) {
    case at_t::open:
      if (space(c)) return {};
      if (c != '{') return refuse("not a JSON object (Go's C1 wrapper or a C1)");
      if (mode_ == mode_t::sniff) head_ += c;
      at_ = at_t::key_or_close;
      return {};
    case at_t::key_or_close:
    case at_t::comma:
      if (mode_ == mode_t::sniff) head_ += c;
      if (space(c)) return {};
      if (c == '}' && (at_ == at_t::comma || mode_ == mode_t::sniff)) {  // {} or the last field
        at_ = at_t::done;
        return {};
      }
      if (at_ == at_t::comma) {
        if (c != ',') return refuse("expected , or } after a field");
        at_ = at_t::key_or_close;
        return {};
      }
      if (c != '"') return refuse("expected a field name");
      key_.clear();
      at_ = at_t::key;
      return {};
    case at_t::key:
      if (mode_ == mode_t::sniff) head_ += c;
      if (c != '"') {
        if (key_.size() > 64) return refuse("a field name of more than 64 bytes");
        key_ += c;
        return {};
      }
      if (key_ != "SectorNum" && key_ != "Phase1Out" && key_ != "SectorSize") {
        if (mode_ == mode_t::wrapper)
          return refuse("field \"" + key_ +
                        "\" is not one of Go's C1 wrapper (SectorNum, "
                        "Phase1Out, SectorSize)");
        mode_ = mode_t::raw;  // a C1's JSON itself: what came so far, then the rest as it comes
        at_ = at_t::done;
        check_t sent = sink_(head_);
        std::string().swap(head_);
        return sent;
      }
      if (mode_ == mode_t::sniff) std::string().swap(head_);
      mode_ = mode_t::wrapper;
      if ((key_ == "SectorNum" && sector_num) || (key_ == "SectorSize" && sector_size) ||
          (key_ == "Phase1Out" && phase1out_))
        return refuse(key_ + " is given twice");
      at_ = at_t::colon;
      return {};
    case at_t::colon:
      if (space(c)) return {};
      if (c != ':') return refuse("expected : after \"" + key_ + "\"");
      at_ = at_t::value;
      return {};
    case at_t::value:
      if (space(c)) return {};
      if (key_ == "Phase1Out") {
        if (c != '"') return refuse("Phase1Out: expected a string (the C1 in base64)");
        phase1out_ = true;
        at_ = at_t::base64;
        return {};
      }
      if (c < '0' || c > '9') return refuse(key_ + ": expected an unsigned integer");
      number_ = uint64_t(c - '0');
      digits_ = 1;
      at_ = at_t::number;
      return {};
    case at_t::number:
      if (c >= '0' && c <= '9') {
        if (number_ == 0 || number_ > (UINT64_MAX - uint64_t(c - '0')) / 10)
          return refuse(key_ + ": not an unsigned 64-bit integer");
        number_ = number_ * 10 + uint64_t(c - '0');
        ++digits_;
        return {};
      }
      (key_ == "SectorNum" ? sector_num : sector_size) = number_;
      at_ = at_t::comma;
      return step(c);
    case at_t::base64:  // its end, or an escape ("\/" as some writers put '/')
      if (c == '\\') {
        at_ = at_t::escape;
        return {};
      }
      at_ = at_t::comma;  // c is the closing quote
      if (!b64_.finish())
        return refuse("Phase1Out: not standard padded base64 (it ends inside a group of four)");
      return flush();
    case at_t::escape:
      if (c != '/') return refuse("Phase1Out: an escape other than \\/ in base64");
      at_ = at_t::base64;
      if (!b64_.feed("/", out_)) return refuse("Phase1Out: not standard padded base64");
      return {};
    case at_t::done:
      if (space(c)) return {};
      return refuse("bytes after the wrapper's closing }");
  }
  return {};
}

check_t c1_stream_t::finish() {
  if (mode_ == mode_t::raw) return {};
  if (at_ != at_t::done)
    return refuse(mode_ == mode_t::sniff && at_ == at_t::open ? "empty"
                                                              : "the JSON object ends early");
  if (!phase1out_) return refuse("Go's C1 wrapper without Phase1Out");
  return {};
}

}  // namespace zk::node::cuzk
