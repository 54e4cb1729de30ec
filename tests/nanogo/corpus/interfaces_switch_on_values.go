package main

import "fmt"

type Key struct{ A, B int }

func main() {
	vals := []interface{}{1, "1", 1.0, int64(1), Key{1, 2}, nil, true}
	for _, v := range vals {
		switch v {
		case 1:
			fmt.Println("int one")
		case "1":
			fmt.Println("string one")
		case 1.0:
			fmt.Println("float one")
		case Key{1, 2}:
			fmt.Println("key")
		case nil:
			fmt.Println("nil")
		default:
			fmt.Printf("other %T\n", v)
		}
	}
	arr := [2]interface{}{1, "x"}
	fmt.Println(arr == [2]interface{}{1, "x"}, arr == [2]interface{}{1.0, "x"})
	type S struct{ V interface{} }
	fmt.Println(S{1} == S{1}, S{1} == S{int8(1)})
}
