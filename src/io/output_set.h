// All the files of one run, committed together or not at all (ninja's "build log written last" in
// the large): a command stages every output (a file path, or stdout as "" / "-") and commits them at
// the end. commit() first writes every file to a temporary sibling (so an unwritable folder, a path
// naming a folder or a full disk fails before any target is touched), then renames them over their
// targets one by one, each previous target kept as a hard-linked backup; when a rename fails, the
// targets already replaced get their backups back and new ones are removed. Stdout is written last,
// once every file is in place. A set destroyed without a commit leaves no trace. Diagnostics name
// the path as the user gave it (never the one a symlink resolves to) as the file and "output" as
// the field.
//
// A target that exists and is not a regular file (/dev/null, /dev/stdout, a pipe) is written in
// place after the files, never renamed over; a symlink to a file keeps being a symlink.
//
// Each output is staged with the option that asked for it ("-o", "--csv-links"). Two outputs to
// one destination are a clash, and commit() writes nothing: stdout twice ("-" and "-", or "-" and
// /dev/stdout), or one file however it is spelt (x.csv and ./x.csv, a symlink or a hard link to
// it: the same canonical path or the same inode). /dev/null takes any number of outputs.
//
// Not atomic across a crash between two renames (POSIX has no multi-file rename); atomic against
// every failure the process sees.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace ct {

class OutputSet {
 public:
  OutputSet() = default;
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;
  ~OutputSet();

  // Adds `content` for `path` ("" or "-": stdout), asked for by `option` (for messages).
  void stage(const std::string& path, std::string content, std::string option = "-o");
  // The first two outputs that share a destination, as a message naming both options ("--csv-links
  // - and --csv-flows - both write to stdout"); empty when every output has its own.
  [[nodiscard]] std::string clash() const;
  // Writes everything, or nothing (and then diagnostics naming the path that failed, or the clash).
  Result<Unit> commit();

  [[nodiscard]] std::size_t size() const { return outputs_.size(); }

 private:
  struct Output {
    std::string path;  // as staged (the user's words, for messages); "" for stdout
    std::string option;  // the option that asked for it: "-o", "--html"
    std::string target;  // what is written: `path` with its symlinks resolved
    std::string content;
    std::string temporary;  // the written sibling, until renamed
    std::string backup;     // hard link to the previous target, until the commit ends
    bool replaced = false;  // renamed over its target
    bool existed = false;   // the target existed before
    bool stream = false;    // an existing device or pipe (/dev/null): written in place at the end
  };
  static std::string said(const Output& o);
  void roll_back();
  void remove_temporaries();
  std::vector<Output> outputs_;
};

}  // namespace ct
