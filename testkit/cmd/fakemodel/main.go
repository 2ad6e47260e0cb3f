// Command fakemodel runs the scripted model server for manual agent runs:
//
//	go run ./testkit/cmd/fakemodel -addr 127.0.0.1:8765
//
// then point an agent at it (ANTHROPIC_BASE_URL, OPENAI_BASE_URL, a Codex
// provider base_url, GOOGLE_GEMINI_BASE_URL) and put "[scenario:tool]" in a
// prompt. With -log, every request is printed as one JSON line.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hermesdesk/hermesdesk/testkit/fakemodel"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (loopback)")
	logReqs := flag.Bool("log", false, "print each recorded request as a JSON line on stderr")
	flag.Parse()
	s, err := fakemodel.New(*addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(s.URL)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	seen := 0
	for {
		select {
		case <-sig:
			_ = s.Close()
			return
		case <-tick.C:
			if !*logReqs {
				continue
			}
			reqs := s.Requests()
			for _, r := range reqs[seen:] {
				r.Body, r.Header = nil, nil
				b, _ := json.Marshal(r)
				fmt.Fprintln(os.Stderr, string(b))
			}
			seen = len(reqs)
		}
	}
}
