package main

import "fmt"

type P struct{ X int }

func main() {
	m := map[string]P{"a": {1}}
	m["a"].X = 5
	fmt.Println(m)
}
