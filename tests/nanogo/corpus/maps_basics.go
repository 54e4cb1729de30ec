package main

import "fmt"

func main() {
	ages := map[string]int{"alice": 31, "bob": 25}
	ages["carol"] = 40
	fmt.Println(ages, len(ages))
	v, ok := ages["bob"]
	fmt.Println(v, ok)
	v, ok = ages["dave"]
	fmt.Println(v, ok)
	delete(ages, "bob")
	delete(ages, "nobody")
	fmt.Println(ages)
	if _, found := ages["alice"]; found {
		fmt.Println("alice present")
	}
	ages["alice"]++
	ages["zed"] += 5
	fmt.Println(ages["alice"], ages["zed"])
	var nilMap map[string]bool
	fmt.Println(nilMap["x"], len(nilMap))
	m := make(map[int]string, 10)
	m[3], m[1], m[2] = "c", "a", "b"
	fmt.Println(m)
}
