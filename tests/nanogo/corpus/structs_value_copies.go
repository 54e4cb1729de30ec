package main

import "fmt"

type Inner struct{ Vals [3]int }

type Outer struct {
	In   Inner
	Tags []string
}

func mutate(o Outer) {
	o.In.Vals[0] = 99
	o.Tags[0] = "changed"
}

type Box struct{ N int }

func (b Box) Get() int { return b.N }

func main() {
	o := Outer{Inner{[3]int{1, 2, 3}}, []string{"orig"}}
	mutate(o)
	fmt.Println(o.In.Vals, o.Tags)
	o2 := o
	o2.In.Vals[1] = 77
	fmt.Println(o.In.Vals, o2.In.Vals)
	m := map[string][2]int{"a": {1, 2}}
	arr := m["a"]
	arr[0] = 10
	fmt.Println(m, arr)
	b := Box{1}
	get := b.Get
	b.N = 2
	fmt.Println(get(), b.Get())
	var i interface{} = b
	b.N = 3
	fmt.Println(i.(Box).N, b.N)
	defer fmt.Println("deferred Get sees", b.Get())
	b.N = 4
	boxes := [2]Box{{1}, {2}}
	cp := boxes
	cp[0].N = 100
	fmt.Println(boxes, cp, boxes == cp)
}
