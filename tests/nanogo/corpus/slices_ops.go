package main

import "fmt"

func remove(s []int, i int) []int {
	return append(s[:i], s[i+1:]...)
}

func insert(s []int, i, v int) []int {
	s = append(s, 0)
	copy(s[i+1:], s[i:])
	s[i] = v
	return s
}

func main() {
	s := []int{10, 20, 30, 40, 50}
	s = remove(s, 1)
	fmt.Println(s)
	s = insert(s, 2, 99)
	fmt.Println(s)
	last := s[len(s)-1]
	s = s[:len(s)-1]
	fmt.Println(last, s)
	reversed := make([]int, len(s))
	for i, v := range s {
		reversed[len(s)-1-i] = v
	}
	fmt.Println(reversed)
	var stack []string
	stack = append(stack, "a", "b", "c")
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		fmt.Print(top)
	}
	fmt.Println()
	queue := []int{1, 2, 3}
	queue = queue[1:]
	fmt.Println(queue, len(queue), cap(queue))
}
