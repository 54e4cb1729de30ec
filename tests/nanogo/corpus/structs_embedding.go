package main

import "fmt"

type Animal struct {
	Name string
	Legs int
}

func (a Animal) Describe() string {
	return fmt.Sprintf("%s has %d legs", a.Name, a.Legs)
}

func (a *Animal) SetName(n string) { a.Name = n }

type Dog struct {
	Animal
	Breed string
}

func (d Dog) Speak() string { return d.Name + " says woof" }

type Loud struct {
	Dog
	Volume int
}

func main() {
	d := Dog{Animal{"Rex", 4}, "lab"}
	fmt.Println(d.Describe())
	fmt.Println(d.Speak())
	d.SetName("Max")
	fmt.Println(d.Name, d.Animal.Name)
	fmt.Printf("%+v\n", d)
	fmt.Println(d)
	l := Loud{d, 11}
	fmt.Println(l.Speak(), l.Legs, l.Describe())
	fmt.Printf("%+v\n", l)
}
