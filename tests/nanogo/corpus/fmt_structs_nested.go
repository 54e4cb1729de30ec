package main

import "fmt"

type Address struct {
	City string
	Zip  int
}

type User struct {
	Name    string
	Age     int
	Addr    Address
	Ptr     *Address
	Tags    []string
	Meta    map[string]int
	private bool
}

func main() {
	u := User{
		Name: "Ann",
		Age:  28,
		Addr: Address{"Oslo", 150},
		Tags: []string{"a", "b"},
		Meta: map[string]int{"k": 1},
	}
	fmt.Println(u)
	fmt.Printf("%+v\n", u)
	fmt.Printf("%#v\n", u.Addr)
	fmt.Printf("%#v\n", u.Tags)
	fmt.Printf("%#v\n", u.Meta)
	fmt.Printf("%#v %#v %#v %#v\n", 42, "s", 1.5, true)
	fmt.Printf("%v\n", []Address{{"A", 1}, {"B", 2}})
	fmt.Printf("%+v\n", []*Address{nil})
	type Empty struct{}
	fmt.Println(Empty{}, []Empty{{}, {}})
	fmt.Printf("%#v\n", Empty{})
}
