package main

import "fmt"

func main() {
	a := []int{1, 2, 3, 4, 5}
	b := a[1:3]
	fmt.Println(b, len(b), cap(b))
	b[0] = 20
	fmt.Println(a)
	b = append(b, 30)
	fmt.Println(a, b)
	c := a[1:2:3]
	fmt.Println(len(c), cap(c))
	c = append(c, 99)
	c = append(c, 100)
	c[0] = -1
	fmt.Println(a, c)
	d := make([]int, 0, 4)
	e := append(d, 1)
	f := append(d, 2)
	fmt.Println(e, f)
	g := a[:0]
	for _, x := range a {
		if x%2 == 1 {
			g = append(g, x)
		}
	}
	fmt.Println(g, a)
}
