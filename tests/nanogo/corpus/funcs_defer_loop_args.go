package main

import "fmt"

type T struct{ name string }

func (t T) Close() { fmt.Println("close", t.name) }

func process(names []string) {
	for _, n := range names {
		t := T{n}
		defer t.Close()
	}
	fmt.Println("processing", len(names))
}

func trace(s string) string {
	fmt.Println("enter", s)
	return s
}

func un(s string) { fmt.Println("leave", s) }

func a() {
	defer un(trace("a"))
	fmt.Println("in a")
}

func main() {
	process([]string{"f1", "f2", "f3"})
	a()
}
