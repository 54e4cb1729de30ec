package main

import "fmt"

func main() {
	fmt.Println("Celsius | Fahrenheit | Kelvin")
	for c := -20; c <= 40; c += 10 {
		f := float64(c)*9/5 + 32
		k := float64(c) + 273.15
		fmt.Printf("%7d | %10.1f | %6.2f\n", c, f, k)
	}
}
