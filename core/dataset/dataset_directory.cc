// core/dataset — the dataset directory (dataset_directory.h): std::filesystem for folders
// and the rename (POSIX rename(2) replaces the target atomically on one file system), stdio
// for the bytes, fsync before the rename so a power loss cannot leave the final name
// pointing at an empty file.
#include "dataset/dataset_directory.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace nettrace::dataset {
namespace {

Status IoError(const std::string& what, const std::string& path, const std::string& why) {
  return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, what + " " + path + ": " + why);
}

}  // namespace

std::string PartitionDir(const std::string& root, const std::string& table, const std::string& traceId) {
  return root + "/" + table + "/trace_id=" + traceId;
}

std::string PartFile(const std::string& root, const std::string& table, const std::string& traceId) {
  return PartitionDir(root, table, traceId) + "/part-0.parquet";
}

std::string TempPartFile(const std::string& root, const std::string& table, const std::string& traceId) {
  return PartitionDir(root, table, traceId) + "/.part-0.parquet.partial";
}

bool DatasetDirectory::HasTrace(const std::string& traceId) const {
  std::error_code ec;
  return std::filesystem::is_regular_file(PartFile(root_, "traces", traceId), ec);
}

Status DatasetDirectory::WriteTable(const std::string& table, const std::string& traceId,
                                    const std::function<Status(parquet::ByteSink*)>& write) const {
  const std::string dir = PartitionDir(root_, table, traceId);
  const std::string temp = TempPartFile(root_, table, traceId);
  const std::string final = PartFile(root_, table, traceId);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return IoError("cannot create", dir, ec.message());
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (!f) return IoError("cannot create", temp, std::strerror(errno));
  parquet::FileSink sink(f, temp);
  Status st = write(&sink);
  if (st.ok() && std::fflush(f) != 0) st = IoError("cannot write", temp, std::strerror(errno));
#if defined(__unix__) || defined(__APPLE__)
  if (st.ok() && ::fsync(fileno(f)) != 0) st = IoError("cannot flush", temp, std::strerror(errno));
#endif
  if (std::fclose(f) != 0 && st.ok()) st = IoError("cannot close", temp, std::strerror(errno));
  if (st.ok()) {
    std::filesystem::rename(temp, final, ec);
    if (ec) st = IoError("cannot rename", temp, ec.message());
  }
  if (!st.ok()) std::filesystem::remove(temp, ec);
  return st;
}

}  // namespace nettrace::dataset
