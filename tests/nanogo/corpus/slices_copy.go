package main

import "fmt"

func main() {
	src := []int{1, 2, 3, 4, 5}
	dst := make([]int, 3)
	n := copy(dst, src)
	fmt.Println(n, dst)
	n = copy(src, src[2:])
	fmt.Println(n, src)
	b := make([]byte, 5)
	n = copy(b, "hello world")
	fmt.Println(n, string(b))
	clone := append([]int(nil), src...)
	clone[0] = 100
	fmt.Println(src, clone)
	big := make([]int, 10)
	fmt.Println(copy(big, src), big)
}
