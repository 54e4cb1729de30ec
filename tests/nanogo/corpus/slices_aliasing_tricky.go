package main

import "fmt"

func main() {
	s := []int{0, 1, 2, 3, 4, 5}
	t := append(s[:2], s[3:]...)
	fmt.Println(t, s)
	a := make([]int, 3, 10)
	b := append(a, 1)
	c := append(a, 2)
	fmt.Println(b[3], c[3])
	x := []int{1, 2, 3}
	y := x[:2]
	y = append(y, 100)
	fmt.Println(x)
	p := &x[0]
	x = append(x, 4)
	*p = -1
	fmt.Println(x[0], *p)
	m := [][]int{{1}, {2}}
	row := m[0]
	row[0] = 50
	fmt.Println(m)
	n := copy(s[1:], s)
	fmt.Println(n, s)
}
