package main

import "fmt"

type Stack[T any] struct {
	items []T
}

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

func (s *Stack[T]) Len() int { return len(s.items) }

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

func main() {
	var s Stack[string]
	s.Push("a")
	s.Push("b")
	fmt.Println(s.Len())
	v, ok := s.Pop()
	fmt.Println(v, ok)
	s.Pop()
	v, ok = s.Pop()
	fmt.Printf("%q %v\n", v, ok)
	is := &Stack[int]{}
	for i := 0; i < 4; i++ {
		is.Push(i * i)
	}
	fmt.Println(is.items)
	p := Pair[string, int]{"age", 30}
	fmt.Printf("%v %+v\n", p, p)
	ps := []Pair[int, bool]{{1, true}, {2, false}}
	fmt.Println(ps)
}
