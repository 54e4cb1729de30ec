package main

import "fmt"

func main() {
	s := make([]int, 0, 5)
	for i := 0; i < 12; i++ {
		s = append(s, i)
	}
	fmt.Println(len(s), cap(s))
	b := []byte{}
	for i := 0; i < 40; i++ {
		b = append(b, 'x')
	}
	fmt.Println(len(b), cap(b))
	strs := []string{"a"}
	strs = append(strs, "b", "c", "d", "e")
	fmt.Println(len(strs), cap(strs))
	x := append([]int{}, make([]int, 7)...)
	fmt.Println(len(x), cap(x))
	y := append(make([]int, 3, 3), 1, 2, 3, 4, 5)
	fmt.Println(len(y), cap(y))
	type big struct{ a, b, c, d, e int64 }
	bs := []big{}
	for i := 0; i < 5; i++ {
		bs = append(bs, big{})
		fmt.Print(cap(bs), " ")
	}
	fmt.Println()
	full := s[2:5:5]
	full = append(full, 99)
	fmt.Println(s[5], full, cap(full))
}
