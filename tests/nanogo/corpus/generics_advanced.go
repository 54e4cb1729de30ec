package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

type Number interface {
	~int | ~int64 | ~float64
}

type Vector[T Number] []T

func (v Vector[T]) Dot(o Vector[T]) T {
	var s T
	for i := range v {
		s += v[i] * o[i]
	}
	return s
}

func (v Vector[T]) Scale(k T) Vector[T] {
	out := make(Vector[T], len(v))
	for i, x := range v {
		out[i] = x * k
	}
	return out
}

type Optional[T any] struct {
	val T
	ok  bool
}

func Some[T any](v T) Optional[T] { return Optional[T]{v, true} }
func None[T any]() Optional[T]     { return Optional[T]{} }

func (o Optional[T]) OrElse(d T) T {
	if o.ok {
		return o.val
	}
	return d
}

func (o Optional[T]) String() string {
	if !o.ok {
		return "None"
	}
	return fmt.Sprintf("Some(%v)", o.val)
}

type Result[T any] struct {
	Val T
	Err error
}

func Try[T any](f func() (T, error)) Result[T] {
	v, err := f()
	return Result[T]{v, err}
}

func GroupBy[T any, K comparable](xs []T, key func(T) K) map[K][]T {
	out := map[K][]T{}
	for _, x := range xs {
		k := key(x)
		out[k] = append(out[k], x)
	}
	return out
}

type Set[T comparable] map[T]struct{}

func NewSet[T comparable](xs ...T) Set[T] {
	s := Set[T]{}
	for _, x := range xs {
		s[x] = struct{}{}
	}
	return s
}

func (s Set[T]) Has(x T) bool { _, ok := s[x]; return ok }

func Union[T comparable](a, b Set[T]) Set[T] {
	out := Set[T]{}
	for k := range a {
		out[k] = struct{}{}
	}
	for k := range b {
		out[k] = struct{}{}
	}
	return out
}

func main() {
	v := Vector[float64]{1, 2, 3}
	fmt.Println(v.Dot(v), v.Scale(0.5))
	iv := Vector[int]{1, 2}
	fmt.Printf("%v %T\n", iv.Scale(3), iv)
	fmt.Println(Some(42), None[string](), Some("x").OrElse("y"), None[int]().OrElse(-1))
	r := Try(func() (int, error) { return 0, errors.New("nope") })
	fmt.Printf("%+v\n", r)
	g := GroupBy([]string{"apple", "avocado", "banana", "blueberry", "cherry"}, func(s string) byte { return s[0] })
	fmt.Println(len(g), g['a'], g['b'], g['c'])
	byLen := GroupBy([]string{"go", "c", "js", "rust"}, func(s string) int { return len(s) })
	fmt.Println(byLen)
	u := Union(NewSet(1, 2, 3), NewSet(3, 4))
	keys := make([]int, 0, len(u))
	for k := range u {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	fmt.Println(keys, u.Has(4), u.Has(9))
	words := NewSet(strings.Fields("a b a c")...)
	fmt.Println(len(words))
}
