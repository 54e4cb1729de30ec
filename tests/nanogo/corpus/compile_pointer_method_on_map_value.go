package main

import "fmt"

type Counter struct{ n int }

func (c *Counter) Inc() { c.n++ }

func main() {
	m := map[string]Counter{"a": {}}
	m["a"].Inc()
	fmt.Println(m)
}
