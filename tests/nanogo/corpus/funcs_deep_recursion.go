package main

import "fmt"

type Node struct {
	Val  int
	Next *Node
}

func sumList(n *Node) int {
	if n == nil {
		return 0
	}
	return n.Val + sumList(n.Next)
}

func depth(n int) int {
	if n == 0 {
		return 0
	}
	return 1 + depth(n-1)
}

func main() {
	var head *Node
	for i := 1; i <= 20000; i++ {
		head = &Node{i, head}
	}
	fmt.Println(sumList(head))
	fmt.Println(depth(50000))
}
