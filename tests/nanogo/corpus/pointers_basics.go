package main

import "fmt"

func increment(n *int) { *n++ }

func swap(a, b *int) { *a, *b = *b, *a }

type Node struct {
	Val  int
	Next *Node
}

func main() {
	x := 5
	p := &x
	*p = 10
	fmt.Println(x, *p, p == &x)
	increment(&x)
	fmt.Println(x)
	a, b := 1, 2
	swap(&a, &b)
	fmt.Println(a, b)
	var np *int
	fmt.Println(np == nil, np)
	q := new(int)
	*q = 42
	fmt.Println(*q)
	var head *Node
	for i := 3; i > 0; i-- {
		head = &Node{i, head}
	}
	for n := head; n != nil; n = n.Next {
		fmt.Print(n.Val, " ")
	}
	fmt.Println()
	pp := &p
	**pp = 77
	fmt.Println(x)
}
