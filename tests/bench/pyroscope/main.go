// Command pyroscope-bench times pyroscope's NetTrace reader (github.com/pyroscope-io/dotnetdiag,
// Apache-2.0) on one file, the peer of `nettrace summary` in scripts/bench_pyroscope.sh.
// Only this harness is ours: the reader itself is fetched and built by that script, never
// committed.
//
// The file is read the way dotnetdiag's own test drives its reader and profiler
// (nettrace/nettrace_test.go): a nettrace.Stream over the unbuffered file, with the
// SampleProfiler's handlers for metadata, events (samples kept, rundown methods and modules
// decoded), stack blocks and sequence points. Counting wraps the handlers, so an event is
// counted when the reader hands it out.
//
// With -reader-only the handlers only count: the reader still decodes every block, event
// header and metadata record, but nothing of the profiler runs (no samples kept, no rundown
// payloads decoded). That is the reader's own floor, shown beside the profiler's read.
//
//	pyroscope-bench [-reader-only] FILE
//	                       prints {"events":N,"metadata":N,"stackBlocks":N,
//	                       "sequencePoints":N,"seconds":S,"samplesSeconds":S} or exits 1
//	                       with the reader's error and how many events it read before it
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/pyroscope-io/dotnetdiag/nettrace"
	"github.com/pyroscope-io/dotnetdiag/nettrace/profiler"
)

type result struct {
	Events         int64   `json:"events"`
	Metadata       int64   `json:"metadata"`
	StackBlocks    int64   `json:"stackBlocks"`
	SequencePoints int64   `json:"sequencePoints"`
	Seconds        float64 `json:"seconds"`
	// The profiler's own output step (stack ids to symbolised frames), timed apart: the
	// whole read above is what `nettrace summary` is compared with.
	SamplesSeconds float64 `json:"samplesSeconds"`
	Error          string  `json:"error,omitempty"`
}

func main() {
	readerOnly := flag.Bool("reader-only", false, "count what the reader hands out, run no profiler")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: pyroscope-bench [-reader-only] FILE")
		os.Exit(2)
	}
	var r result
	err := read(flag.Arg(0), *readerOnly, &r)
	if err != nil {
		r.Error = err.Error()
	}
	out, _ := json.Marshal(r)
	fmt.Println(string(out))
	if err != nil {
		os.Exit(1)
	}
}

func read(path string, readerOnly bool, r *result) error {
	start := time.Now()
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	stream := nettrace.NewStream(f)
	trace, err := stream.Open()
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	p := profiler.NewSampleProfiler(trace)
	// A nil handler would make the stream skip decoding that object, so reader-only mode
	// keeps every handler and only leaves out the profiler's work.
	stream.EventHandler = func(b *nettrace.Blob) error {
		r.Events++
		if readerOnly {
			return nil
		}
		return p.EventHandler(b)
	}
	stream.MetadataHandler = func(md *nettrace.Metadata) error {
		r.Metadata++
		if readerOnly {
			return nil
		}
		return p.MetadataHandler(md)
	}
	stream.StackBlockHandler = func(sb *nettrace.StackBlock) error {
		r.StackBlocks++
		if readerOnly {
			return nil
		}
		return p.StackBlockHandler(sb)
	}
	stream.SequencePointBlockHandler = func(sp *nettrace.SequencePointBlock) error {
		r.SequencePoints++
		if readerOnly {
			return nil
		}
		return p.SequencePointBlockHandler(sp)
	}
	for {
		err = stream.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	r.Seconds = time.Since(start).Seconds()
	start = time.Now()
	_ = p.Samples()
	r.SamplesSeconds = time.Since(start).Seconds()
	return nil
}
