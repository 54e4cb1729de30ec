package main

import "fmt"

type Base struct{ ID int }

func (b Base) Hello() string { return fmt.Sprintf("base %d", b.ID) }
func (b Base) Kind() string  { return "base" }

type Derived struct {
	Base
	Name string
}

func (d Derived) Hello() string { return "derived " + d.Name + " / " + d.Base.Hello() }

type Greeter interface{ Hello() string }

func main() {
	d := Derived{Base{7}, "x"}
	fmt.Println(d.Hello())
	fmt.Println(d.Kind())
	var g Greeter = d
	fmt.Println(g.Hello())
	g = d.Base
	fmt.Println(g.Hello())
	fmt.Println(d.ID)
}
