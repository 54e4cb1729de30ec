package main

import "fmt"

type Reader interface{ Read() string }
type Writer interface{ Write(s string) }
type ReadWriter interface {
	Reader
	Writer
}

type Buffer struct{ data []string }

func (b *Buffer) Write(s string) { b.data = append(b.data, s) }
func (b *Buffer) Read() string {
	if len(b.data) == 0 {
		return ""
	}
	s := b.data[0]
	b.data = b.data[1:]
	return s
}

func main() {
	var rw ReadWriter = &Buffer{}
	rw.Write("one")
	rw.Write("two")
	var r Reader = rw
	fmt.Println(r.Read(), rw.Read(), rw.Read() == "")
	var w Writer = rw
	w.Write("three")
	fmt.Println(rw.(*Buffer).data)
}
