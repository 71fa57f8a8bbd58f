// wasm/ — the embind surface of core/dataset (the Parquet writer and the dataset's traces
// table), for the npm CLI and JS API: bytes leave through a JS `write(Uint8Array)` callback
// (a view into the heap, valid during the call: the callee writes or copies it at once),
// and pages are compressed by a JS `compress(Uint8Array) → Uint8Array` (Node's
// zlib.gzipSync) where asked, since Emscripten 3.1.6 has no zlib or zstd port offline.
// Conversions only.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "dataset/byte_sink.h"
#include "dataset/page_codec.h"
#include "dataset/sample_tables.h"
#include "dataset/sha256.h"
#include "dataset/trace_tables.h"
#include "dataset/traces_table.h"
#include "trace_session.h"

namespace {

using emscripten::val;
using nettrace::Status;
namespace parquet = nettrace::parquet;
namespace dataset = nettrace::dataset;

val View(const uint8_t* data, size_t size) { return val(emscripten::typed_memory_view(size, data)); }

// A JS Uint8Array into *out: one copy, in JS, into the heap; false for anything else.
bool CopyFromJs(const val& bytes, std::vector<uint8_t>* out) {
  if (!bytes.instanceof(val::global("Uint8Array"))) return false;
  out->resize(bytes["length"].as<size_t>());
  View(out->data(), out->size()).call<void>("set", bytes);
  return true;
}

// {ok, message, peakBufferBytes?}
val Result(const Status& s) {
  val out = val::object();
  out.set("ok", s.ok());
  out.set("message", s.message());
  return out;
}

// codec "none" → no codec; "gzip" → GZIP pages compressed by `compress`.
Status CodecFromJs(const std::string& name, val compress, std::unique_ptr<parquet::PageCodec>* codec) {
  codec->reset();
  if (name == "none") return Status::Ok();
  if (name != "gzip" || compress.isUndefined()) {
    return Status::Error(nettrace::ErrorCode::kInvalidArgument, nettrace::kNoOffset,
                         "codec '" + name + "': the wasm build writes 'none', or 'gzip' with a compress function");
  }
  *codec = parquet::MakeCallbackCodec(parquet::Codec::kGzip, [compress](const uint8_t* in, size_t n, std::vector<uint8_t>* out) {
    const val result = compress(View(in, n));
    return CopyFromJs(result, out);
  });
  return Status::Ok();
}

parquet::CallbackSink SinkFromJs(val write) {
  return parquet::CallbackSink([write](const uint8_t* data, size_t size) {
    write(View(data, size));
    return true;
  });
}

// kind: "types" | "empty" | "big_strings" | "events" (core/dataset/sample_tables.h).
val WriteParquetSample(const std::string& kind, double rows, double rowGroupRows, const std::string& codecName, val write,
                       val compress) {
  std::unique_ptr<parquet::PageCodec> codec;
  Status st = CodecFromJs(codecName, compress, &codec);
  parquet::WriterOptions options;
  options.codec = codec.get();
  if (rowGroupRows > 0) options.rowGroupRows = static_cast<uint64_t>(rowGroupRows);
  parquet::CallbackSink sink = SinkFromJs(write);
  uint64_t peak = 0;
  if (!st.ok()) {
  } else if (kind == "types") {
    st = dataset::WriteTypesSample(1000, options, &sink);
  } else if (kind == "empty") {
    st = dataset::WriteTypesSample(0, options, &sink);
  } else if (kind == "big_strings") {
    st = dataset::WriteBigStringsSample(options, &sink);
  } else if (kind == "events") {
    st = dataset::WriteEventsSample(static_cast<uint64_t>(rows), options, &sink, &peak);
  } else {
    st = Status::Error(nettrace::ErrorCode::kInvalidArgument, nettrace::kNoOffset, "no sample table '" + kind + "'");
  }
  val out = Result(st);
  out.set("peakBufferBytes", static_cast<double>(peak));
  return out;
}

// Runs fill(options, sink) with the codec's options and a sink for `write`: {ok, message}.
template <typename Fill>
val WriteWith(const std::string& codecName, val compress, val write, Fill fill) {
  std::unique_ptr<parquet::PageCodec> codec;
  Status st = CodecFromJs(codecName, compress, &codec);
  if (st.ok()) {
    parquet::WriterOptions options;
    options.codec = codec.get();
    parquet::CallbackSink sink = SinkFromJs(write);
    st = fill(options, &sink);
  }
  return Result(st);
}

// One trace's row of the traces table, from its Summary JSON (TraceSession.summaryJson()).
val WriteTracesTable(const std::string& summaryJson, const std::string& traceId, const std::string& fileName,
                     double fileBytes, const std::string& codecName, val write, val compress) {
  return WriteWith(codecName, compress, write, [&](const parquet::WriterOptions& options, parquet::ByteSink* sink) {
    const std::vector<dataset::TraceRow> rows = {
        dataset::TraceRowFromSummary(summaryJson, traceId, fileName, static_cast<int64_t>(fileBytes))};
    return dataset::WriteTracesTable(rows, options, sink);
  });
}

// The tables of one read trace (core/dataset/trace_tables.h), written one at a time in
// kTraceTables' order. `read(offset, size) → Uint8Array` re-reads event blocks for the
// payloads (Node: fs.readSync), or is undefined to leave payload_json null.
struct TraceTablesJs {
  std::unique_ptr<dataset::TraceTables> tables;
};

TraceTablesJs* NewTraceTables(nettrace::TraceSession& session, val read) {
  nettrace::TraceSession::BlockReader reader;
  if (!read.isUndefined()) {
    reader = [read](uint64_t offset, uint64_t size, std::vector<uint8_t>* out) {
      return CopyFromJs(read(static_cast<double>(offset), static_cast<double>(size)), out);
    };
  }
  return new TraceTablesJs{std::make_unique<dataset::TraceTables>(session.stackModel(), std::move(reader))};
}

val WriteTraceTable(TraceTablesJs& t, const std::string& table, const std::string& codecName, val write, val compress) {
  return WriteWith(codecName, compress, write, [&](const parquet::WriterOptions& options, parquet::ByteSink* sink) {
    return t.tables->Write(table, options, sink);
  });
}

val TraceTableNames() {
  val out = val::array();
  for (const char* table : dataset::kTraceTables) out.call<void>("push", std::string(table));
  return out;
}

// SHA-256 in chunks from the heap (pointer, size), as TraceSession.pushChunk takes them.
void Sha256Update(nettrace::Sha256& h, std::uintptr_t data, std::size_t size) {
  h.Update(reinterpret_cast<const uint8_t*>(data), size);
}

}  // namespace

EMSCRIPTEN_BINDINGS(nettrace_dataset) {
  emscripten::function("writeParquetSample", &WriteParquetSample);
  emscripten::function("writeTracesTable", &WriteTracesTable);
  emscripten::function("traceTableNames", &TraceTableNames);
  emscripten::class_<TraceTablesJs>("TraceTables")
      .constructor(&NewTraceTables, emscripten::allow_raw_pointers())
      .function("write", &WriteTraceTable);
  emscripten::class_<nettrace::Sha256>("Sha256")
      .constructor<>()
      .function("update", &Sha256Update, emscripten::allow_raw_pointers())
      .function("hex", &nettrace::Sha256::Hex);
}
