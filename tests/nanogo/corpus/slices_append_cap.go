package main

import "fmt"

func main() {
	var s []int
	fmt.Println(s == nil, len(s), cap(s))
	for i := 0; i < 10; i++ {
		s = append(s, i)
		fmt.Printf("len=%d cap=%d\n", len(s), cap(s))
	}
	t := make([]int, 3, 10)
	fmt.Println(t, len(t), cap(t))
	u := append([]int{1, 2}, 3, 4, 5)
	fmt.Println(u, len(u), cap(u))
	v := append(u, u...)
	fmt.Println(v, len(v), cap(v))
	w := append([]byte("hi"), " there"...)
	fmt.Println(string(w))
}
