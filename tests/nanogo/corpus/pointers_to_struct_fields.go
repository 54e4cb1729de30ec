package main

import "fmt"

type Vec struct{ X, Y float64 }

func (v *Vec) Scale(f float64) {
	v.X *= f
	v.Y *= f
}

func (v Vec) Len2() float64 { return v.X*v.X + v.Y*v.Y }

func newVec(x, y float64) *Vec { return &Vec{x, y} }

func main() {
	v := newVec(3, 4)
	v.Scale(2)
	fmt.Println(*v, v.Len2())
	px := &v.X
	*px = 0
	fmt.Println(v.X, v.Y)
	arr := []Vec{{1, 1}, {2, 2}}
	for i := range arr {
		arr[i].Scale(10)
	}
	fmt.Println(arr)
	pa := &arr
	(*pa)[0].X = -1
	fmt.Println(arr[0])
	var counter *int = new(int)
	for i := 0; i < 5; i++ {
		*counter += i
	}
	fmt.Println(*counter)
	ptrs := make([]*int, 3)
	for i := range ptrs {
		n := i * 100
		ptrs[i] = &n
	}
	fmt.Println(*ptrs[0], *ptrs[1], *ptrs[2])
}
