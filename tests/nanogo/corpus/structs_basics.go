package main

import "fmt"

type Person struct {
	Name string
	Age  int
	Tags []string
}

func main() {
	p := Person{Name: "Alice", Age: 30}
	fmt.Println(p)
	fmt.Printf("%v\n%+v\n", p, p)
	p.Tags = append(p.Tags, "admin")
	q := p
	q.Name = "Bob"
	fmt.Println(p.Name, q.Name)
	var zero Person
	fmt.Printf("%+v\n", zero)
	anon := struct {
		ID   int
		Note string
	}{1, "anon"}
	fmt.Println(anon, anon.Note)
	pp := &Person{"Carol", 41, nil}
	pp.Age++
	fmt.Println(pp.Age, *pp, pp)
	fmt.Println(p.withAge(5).Age, p.Age)
}

func (p Person) withAge(a int) Person { p.Age = a; return p }
