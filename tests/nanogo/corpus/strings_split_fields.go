package main

import (
	"fmt"
	"strings"
)

func main() {
	csv := "name,age,city\nAlice,30,Paris\nBob,25,Berlin"
	for i, line := range strings.Split(csv, "\n") {
		cols := strings.Split(line, ",")
		fmt.Println(i, len(cols), cols)
	}
	fmt.Printf("%q\n", strings.SplitN("a:b:c:d", ":", 2))
	fmt.Printf("%q\n", strings.SplitAfter("a,b,c", ","))
	fmt.Printf("%q\n", strings.Split("abc", ""))
	fmt.Printf("%q\n", strings.Split("a,,b", ","))
	fmt.Printf("%q\n", strings.FieldsFunc("a1b2c3", func(r rune) bool { return r >= '0' && r <= '9' }))
	before, after, found := strings.Cut("key=value", "=")
	fmt.Println(before, after, found)
}
