package main

import "fmt"

type Node struct {
	Value int
	Next  *Node
}

type LinkedList struct {
	Head *Node
	Len  int
}

func (l *LinkedList) Append(v int) {
	n := &Node{Value: v}
	if l.Head == nil {
		l.Head = n
	} else {
		cur := l.Head
		for cur.Next != nil {
			cur = cur.Next
		}
		cur.Next = n
	}
	l.Len++
}

func (l *LinkedList) Reverse() {
	var prev *Node
	cur := l.Head
	for cur != nil {
		next := cur.Next
		cur.Next = prev
		prev = cur
		cur = next
	}
	l.Head = prev
}

func (l *LinkedList) String() string {
	s := "["
	for n := l.Head; n != nil; n = n.Next {
		if n != l.Head {
			s += " -> "
		}
		s += fmt.Sprint(n.Value)
	}
	return s + "]"
}

func main() {
	l := &LinkedList{}
	for _, v := range []int{1, 2, 3, 4, 5} {
		l.Append(v)
	}
	fmt.Println(l, l.Len)
	l.Reverse()
	fmt.Println(l)
	fmt.Println(l.String())
}
