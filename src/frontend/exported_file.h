// A file the frontend exporters write for a real daemon (named, bird, gobgpd): its name inside
// the output folder and its content.
#pragma once

#include <string>

namespace ct {

struct ExportedFile {
  std::string name;
  std::string content;
};

}  // namespace ct
