package main

import (
	"fmt"
	"sort"
	"strings"
)

type Product struct {
	SKU      string
	Name     string
	Price    float64
	Stock    int
	Category string
}

func main() {
	inventory := []Product{
		{"A1", "Laptop", 999.99, 5, "electronics"},
		{"B2", "Desk", 249.5, 2, "furniture"},
		{"C3", "Mouse", 19.99, 50, "electronics"},
		{"D4", "Chair", 149, 0, "furniture"},
		{"E5", "Monitor", 189.95, 8, "electronics"},
	}
	byCat := map[string][]Product{}
	for _, p := range inventory {
		byCat[p.Category] = append(byCat[p.Category], p)
	}
	cats := make([]string, 0, len(byCat))
	for c := range byCat {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for _, c := range cats {
		fmt.Println(strings.ToUpper(c))
		value := 0.0
		for _, p := range byCat[c] {
			status := "in stock"
			if p.Stock == 0 {
				status = "OUT"
			}
			fmt.Printf("  %-3s %-8s $%8.2f x%-3d %s\n", p.SKU, p.Name, p.Price, p.Stock, status)
			value += p.Price * float64(p.Stock)
		}
		fmt.Printf("  value: $%.2f\n", value)
	}
	sort.Slice(inventory, func(i, j int) bool { return inventory[i].Price > inventory[j].Price })
	fmt.Println("most expensive:", inventory[0].Name)
}
