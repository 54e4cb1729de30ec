package main

import "fmt"

type Node struct {
	Val  int
	Next *Node
}

func main() {
	n := &Node{Val: 1}
	fmt.Println(n.Val)
	fmt.Println(n.Next.Val)
}
