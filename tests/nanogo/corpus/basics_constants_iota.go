package main

import "fmt"

type Weekday int

const (
	Sunday Weekday = iota
	Monday
	Tuesday
	Wednesday
	Thursday
	Friday
	Saturday
)

const (
	_  = iota
	KB = 1 << (10 * iota)
	MB
	GB
	TB
)

const (
	A, B = iota, iota * 10
	C, D
	E, F
)

func main() {
	fmt.Println(Sunday, Monday, Saturday)
	fmt.Println(KB, MB, GB, TB)
	fmt.Println(A, B, C, D, E, F)
	const greeting = "hi"
	const Pi = 3.14159
	fmt.Println(greeting, Pi)
	fmt.Printf("%T %T\n", Tuesday, Pi)
}
