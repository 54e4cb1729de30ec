package main

import "fmt"

type Inner struct{ V int }
type Outer struct{ In *Inner }

func main() {
	outs := []Outer{{&Inner{1}}, {nil}}
	for _, o := range outs {
		fmt.Println(o.In.V)
	}
}
