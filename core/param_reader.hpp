#pragma once
// Typed, checked access to one point's parameters. A model reads the keys it declares
// (core/key_spec.hpp); what it read, defaults included, becomes the point's parameter record,
// and a key nobody read is an error naming it. So each model's accepted keys live in its own
// code, next to their meaning.
//
// The reader also builds the point's stream identity: the canonical text of every key that
// defines the sampled model (KeySpec::identity) and was given a value other than its default,
// data files by the hash of their content. The point's random streams are keyed by it
// (docs/models/streams.md), so a default added to a model, a renamed or moved data file, or a
// key spelt out at its default value changes no stream.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_value.hpp"

namespace collnoise {

/// A data file a point reads, bound to the point by its content.
struct DataFileRead {
  std::string key;         ///< the dotted key that names it ("noise.file")
  std::string given_path;  ///< as the run file gives it
  std::string path;        ///< where it was read (relative paths taken from the run file's folder)
  std::string hash;        ///< "xxh3:<32 hex digits>" of its content when read
};

class ParamReader {
 public:
  /// `file_base`: the folder relative data-file paths are taken from (the run file's); empty:
  /// the current directory.
  explicit ParamReader(ParamMap given, std::string file_base = "")
      : given_(std::move(given)), file_base_(std::move(file_base)) {}

  /// Whether the run file gives `key` (dotted name).
  bool has(const std::string& key) const { return given_.contains(key); }
  /// Whether the run file gives `key` a list (of numbers or of strings): a key that takes one
  /// value or one per entry of another key's list reads it with numbers() or texts() then.
  bool given_list(const std::string& key) const {
    const auto it = given_.find(key);
    return it != given_.end() && (std::holds_alternative<NumberList>(it->second) ||
                                  std::holds_alternative<TextList>(it->second));
  }
  /// The text of a given string value without reading it (for choosing a model); nullopt when
  /// absent or not a string.
  std::optional<std::string> peek_text(const std::string& key) const;

  // Each accessor reads `spec` under `prefix` ("noise" reads "noise.<name>"; an empty prefix
  // takes the name as it is). A missing key takes its default; a missing required key, a value
  // of another type or outside the bounds is an InputError naming the key, the value, the
  // accepted range and the unit. A key declared in seconds, seconds per byte or bytes also
  // takes a string with a unit ("2.5us", "0.4ns/B", "64KiB"; core/units.hpp), converted to
  // that unit before the bounds are checked; the record and the stream identity hold the
  // converted value, so "2.5us" and 2.5e-6 are the same point with the same streams.
  double number(const KeySpec& spec, const std::string& prefix = "");
  /// An optional number: nullopt when absent (and no default).
  std::optional<double> optional_number(const KeySpec& spec, const std::string& prefix = "");
  std::int64_t integer(const KeySpec& spec, const std::string& prefix = "");
  /// kText, kChoice (checked against the choices) and kFile values. A file is recorded as an
  /// input and keyed by its content; its path as given is recorded, the one returned is taken
  /// from the file base when relative.
  std::string text(const KeySpec& spec, const std::string& prefix = "");
  bool boolean(const KeySpec& spec, const std::string& prefix = "");
  /// An integer >= 1, or a string of decimal digits (beyond 2^63).
  RankCount rank_count(const KeySpec& spec, const std::string& prefix = "");
  NumberList numbers(const KeySpec& spec, const std::string& prefix = "");
  /// A kFile key given one path (read as text() reads it) or a list of paths, `[]` refused: each
  /// taken from the file base when relative, hashed and recorded as a data file (a list's i-th
  /// under "<key>[i]"); the identity holds the list's hashes in order. The paths, as read.
  std::vector<std::string> files(const KeySpec& spec, const std::string& prefix = "");
  /// A list of strings; a single string is a list of one (a sweep gives one string per point),
  /// and `[]` an empty list. The caller checks the strings and whether the list may be empty.
  TextList texts(const KeySpec& spec, const std::string& prefix = "");

  /// Marks a key as read (part of the point) without a value: an optional key left out.
  void accept(const std::string& key);
  /// Records a derived value in the parameter record; `identity`: it also defines the model
  /// (N computed from log2_N), so it joins the stream identity. `unit`: its unit, as a key's.
  void derive(const std::string& key, ParamValue value, bool identity = false,
              const std::string& unit = "");
  /// Drops a key read as an alternative spelling of another from the record (log2_N is N), and
  /// from the stream identity unless `keep_identity` (a key shown in the record another way).
  void forget(const std::string& key, bool keep_identity = false);
  /// Takes over what a reader of a sub-table read (a mixture component): its data files and
  /// stream identity.
  void adopt(const ParamReader& sub);

  /// Records a data file read through another route (whose content joins the identity).
  void add_input_file(const std::string& key, const std::string& path);
  /// Every data file recorded, in the order read.
  const std::vector<DataFileRead>& input_files() const { return files_; }

  /// Throws InputError naming the first given key that no accessor read, with `context` (for
  /// example "a butterfly run") and the keys that were read.
  void reject_unread(const std::string& context) const;

  /// Every value read or derived, defaults included.
  const ParamMap& resolved() const { return resolved_; }
  /// The unit of each value read whose declaration gives one (KeySpec::unit), by dotted name.
  const std::map<std::string, std::string>& units() const { return units_; }
  /// The stream identity: "key=value" lines, sorted by key, of the identity keys given a value
  /// other than their default (doubles in hexadecimal, files as "xxh3:<hash of the content>").
  std::string stream_identity() const;

 private:
  const ParamValue* find(const std::string& key);
  /// Records a value read for `spec` at `key`: in the record, and in the identity unless it is
  /// the default or not an identity key.
  void record(const KeySpec& spec, const std::string& key, const ParamValue& value, bool given);

  ParamMap given_;
  ParamMap resolved_;
  std::map<std::string, std::string> units_;
  std::set<std::string> read_;
  std::vector<DataFileRead> files_;
  std::map<std::string, std::string> identity_;
  std::string file_base_;
};

/// "<prefix>.<name>", or the name alone for an empty prefix.
std::string full_key(const KeySpec& spec, const std::string& prefix);

/// The canonical text of a value in a stream identity: doubles in hexadecimal (every bit),
/// integers and rank counts in decimal, lists bracketed.
std::string canonical_text(const ParamValue& value);

/// XXH3-128 of a file's bytes, as "xxh3:<32 hex digits>". InputError naming `key` and the path
/// when it cannot be read.
std::string file_content_hash(const std::string& key, const std::string& path);
/// XXH3-128 of `text`, as file_content_hash gives it for a file holding that text.
std::string text_content_hash(std::string_view text);

}  // namespace collnoise
