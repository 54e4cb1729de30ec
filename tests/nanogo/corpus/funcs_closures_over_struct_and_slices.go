package main

import (
	"fmt"
	"sort"
)

type Counter struct{ hits map[string]int }

func (c *Counter) Handler(name string) func() {
	return func() { c.hits[name]++ }
}

func main() {
	c := &Counter{hits: map[string]int{}}
	a, b := c.Handler("a"), c.Handler("b")
	a()
	a()
	b()
	fmt.Println(c.hits)
	var log []string
	record := func(format string, args ...interface{}) {
		log = append(log, fmt.Sprintf(format, args...))
	}
	record("x=%d", 1)
	record("%s-%s", "p", "q")
	record("plain")
	fmt.Println(log, len(log))
	people := []struct {
		Name string
		Age  int
	}{{"Z", 3}, {"A", 3}, {"M", 1}}
	byAge := func(i, j int) bool { return people[i].Age < people[j].Age }
	sort.SliceStable(people, byAge)
	fmt.Println(people)
	memo := func(f func(int) int) func(int) int {
		cache := map[int]int{}
		return func(n int) int {
			if v, ok := cache[n]; ok {
				return v
			}
			v := f(n)
			cache[n] = v
			return v
		}
	}
	calls := 0
	sq := memo(func(n int) int { calls++; return n * n })
	fmt.Println(sq(4), sq(4), sq(5), calls)
}
