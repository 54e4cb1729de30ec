package main

import "fmt"

type T struct {
	A int
	B string
}

func main() {
	t := &T{1, "x"}
	fmt.Println(t)
	fmt.Printf("%v %+v\n", t, t)
	ts := []*T{{2, "y"}}
	fmt.Println(len(ts), *ts[0])
	var nt *T
	fmt.Println(nt)
	fmt.Printf("%v %+v\n", nt, nt)
	m := map[string]*T{"k": nil}
	fmt.Println(m)
}
