package main

import "fmt"

type Mover interface{ Move(dx int) }
type Positioner interface{ Pos() int }

type Robot struct{ x int }

func (r *Robot) Move(dx int) { r.x += dx }
func (r Robot) Pos() int     { return r.x }

type Fleet []*Robot

func (f Fleet) MoveAll(dx int) {
	for _, r := range f {
		r.Move(dx)
	}
}

func main() {
	r := Robot{}
	var m Mover = &r
	m.Move(5)
	var p Positioner = r
	fmt.Println(r.Pos(), p.Pos())
	var p2 Positioner = &r
	m.Move(1)
	fmt.Println(p2.Pos(), r.x)
	f := Fleet{&Robot{1}, &Robot{2}}
	f.MoveAll(10)
	fmt.Println(f[0].Pos(), f[1].x)
	if mv, ok := p2.(Mover); ok {
		mv.Move(100)
	}
	fmt.Println(r.x)
	_, ok := p.(Mover)
	fmt.Println(ok)
}
