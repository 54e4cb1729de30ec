package main

import (
	"fmt"
	"sort"
	"strings"
)

type Set map[string]struct{}

func (s Set) Add(v string)      { s[v] = struct{}{} }
func (s Set) Has(v string) bool { _, ok := s[v]; return ok }
func (s Set) Sorted() []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

type Path []string

func (p Path) String() string { return "/" + strings.Join(p, "/") }

func main() {
	s := Set{}
	for _, w := range strings.Fields("b a c a b") {
		s.Add(w)
	}
	fmt.Println(s.Has("a"), s.Has("z"), s.Sorted(), len(s))
	fmt.Println(s)
	p := Path{"usr", "local", "bin"}
	fmt.Println(p)
	fmt.Printf("%v %s %d\n", p, p, len(p))
}
