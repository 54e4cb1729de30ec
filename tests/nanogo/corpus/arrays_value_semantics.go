package main

import "fmt"

func modify(arr [3]int) {
	arr[0] = 99
}

func modifyPtr(arr *[3]int) {
	arr[0] = 99
}

func main() {
	a := [3]int{1, 2, 3}
	modify(a)
	fmt.Println(a)
	modifyPtr(&a)
	fmt.Println(a)
	s := a[:]
	s[1] = 42
	fmt.Println(a, s)
	type Point struct{ X, Y int }
	pts := [2]Point{{1, 2}, {3, 4}}
	for _, p := range pts {
		p.X = 0
	}
	fmt.Println(pts)
	for i := range pts {
		pts[i].X = 0
	}
	fmt.Println(pts)
}
