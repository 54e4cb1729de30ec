package main

import "fmt"

type Item struct {
	Name  string
	Price float64
	Qty   int
}

func main() {
	cart := []Item{
		{"apple", 0.5, 6},
		{"bread", 2.25, 1},
		{"milk", 1.2, 2},
	}
	total := 0.0
	for _, it := range cart {
		line := it.Price * float64(it.Qty)
		fmt.Printf("%-8s %2d x %5.2f = %6.2f\n", it.Name, it.Qty, it.Price, line)
		total += line
	}
	fmt.Printf("TOTAL %.2f\n", total)
	cart[1].Qty = 3
	p := &cart[2]
	p.Price = 1.0
	fmt.Println(cart)
	fmt.Printf("%+v\n", cart[0])
}
