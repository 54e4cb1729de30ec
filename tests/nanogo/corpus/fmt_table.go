package main

import "fmt"

type Row struct {
	Name  string
	Qty   int
	Price float64
}

func main() {
	rows := []Row{{"Widget", 3, 4.5}, {"Gadget", 12, 19.99}, {"Thingamajig", 1, 100}}
	fmt.Printf("%-12s|%5s|%10s\n", "Item", "Qty", "Price")
	fmt.Printf("%s\n", "------------+-----+----------")
	var total float64
	for _, r := range rows {
		fmt.Printf("%-12s|%5d|%10.2f\n", r.Name, r.Qty, r.Price)
		total += float64(r.Qty) * r.Price
	}
	fmt.Printf("%-12s|%5s|%10.2f\n", "Total", "", total)
	for i := 1; i <= 3; i++ {
		for j := 1; j <= 3; j++ {
			fmt.Printf("%4d", i*j)
		}
		fmt.Println()
	}
}
