//go:build linux && desktop

package app

/*
#cgo linux pkg-config: gtk+-3.0
#include <stdint.h>
void hdRequestClipboardImage(uintptr_t id);
*/
import "C"

import (
	"context"
	"sync"
	"unsafe"
)

// clipboardImage reads the clipboard's image as PNG from GTK (nil when it
// holds none): the window's page cannot see it (docs/ARCHITECTURE.md
// §Attachments). GTK answers on its main loop, in clipboard_linux.c.
func clipboardImage(ctx context.Context) ([]byte, error) {
	id, ch := clipWaits.add()
	defer clipWaits.drop(id)
	C.hdRequestClipboardImage(C.uintptr_t(id))
	select {
	case png := <-ch:
		return png, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// clipWaits pairs GTK's answers with the requests waiting for them.
var clipWaits = &waits{m: map[uintptr]chan []byte{}}

type waits struct {
	mu   sync.Mutex
	next uintptr
	m    map[uintptr]chan []byte
}

func (w *waits) add() (uintptr, chan []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.next++
	ch := make(chan []byte, 1)
	w.m[w.next] = ch
	return w.next, ch
}

func (w *waits) drop(id uintptr) {
	w.mu.Lock()
	delete(w.m, id)
	w.mu.Unlock()
}

func (w *waits) answer(id uintptr, png []byte) {
	w.mu.Lock()
	ch := w.m[id]
	w.mu.Unlock()
	if ch != nil {
		ch <- png // buffered, one answer per request
	}
}

//export hdClipboardImage
func hdClipboardImage(id C.uintptr_t, data *C.char, n C.int) {
	var png []byte
	if data != nil && n > 0 {
		png = C.GoBytes(unsafe.Pointer(data), n)
	}
	clipWaits.answer(uintptr(id), png)
}
