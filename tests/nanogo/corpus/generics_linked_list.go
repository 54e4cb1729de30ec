package main

import "fmt"

type List[T any] struct {
	head *node[T]
	size int
}

type node[T any] struct {
	val  T
	next *node[T]
}

func (l *List[T]) Push(v T) {
	l.head = &node[T]{v, l.head}
	l.size++
}

func (l *List[T]) Each(f func(T)) {
	for n := l.head; n != nil; n = n.next {
		f(n.val)
	}
}

func MapList[T, U any](l *List[T], f func(T) U) *List[U] {
	out := &List[U]{}
	l.Each(func(v T) { out.Push(f(v)) })
	return out
}

func main() {
	l := &List[int]{}
	for i := 1; i <= 4; i++ {
		l.Push(i)
	}
	l.Each(func(v int) { fmt.Print(v, " ") })
	fmt.Println(l.size)
	s := MapList(l, func(v int) string { return fmt.Sprint(v * 10) })
	s.Each(func(v string) { fmt.Printf("%q ", v) })
	fmt.Println()
	fmt.Printf("%T %T\n", l, s)
}
