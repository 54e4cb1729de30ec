package main

import "fmt"

type K struct{ A int }

func main() {
	var a interface{} = 1
	var b interface{} = 1
	var c interface{} = int64(1)
	fmt.Println(a == b, a == c)
	var d interface{} = K{1}
	fmt.Println(d == K{1}, d == K{2})
	var e error
	fmt.Println(e == nil)
	m := map[interface{}]string{1: "int", "1": "string", 1.5: "float"}
	fmt.Println(len(m), m[1], m["1"])
}
