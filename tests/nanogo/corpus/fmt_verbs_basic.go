package main

import "fmt"

type P struct {
	X, Y int
	Name string
}

func main() {
	p := P{1, 2, "pt"}
	fmt.Printf("%v|%+v|%#v|%T\n", p, p, p, p)
	fmt.Printf("%v|%+v|%#v|%T\n", &p, &p, []int{1}, &p)
	fmt.Printf("%d|%b|%o|%O|%x|%X|%c|%U|%q\n", 65, 65, 65, 65, 255, 255, 65, 0x1F600, 65)
	fmt.Printf("%s|%q|%x|%X|% x\n", "hi", "hi\n", "hi", "hi", "hi")
	fmt.Printf("%t|%v\n", true, false)
	fmt.Printf("%e|%E|%f|%g|%G\n", 123456.789, 123456.789, 123456.789, 123456.789, 1e-10)
	fmt.Printf("%%|100%%\n")
	fmt.Printf("%v %v %v\n", nil, []string{"a"}, map[string]int{"z": 1, "a": 2})
	fmt.Printf("%T %T %T %T %T %T\n", 1, "s", 2.0, 'r', true, nil)
	fmt.Printf("%T %T %T %T\n", []int{}, map[string]bool{}, [2]int{}, func(int) string { return "" })
}
