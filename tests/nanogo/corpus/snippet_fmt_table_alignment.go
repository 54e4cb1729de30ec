headers := []string{"Name", "Qty", "Price"}
rows := [][]interface{}{
	{"Apple", 3, 0.5},
	{"Watermelon", 1, 3.25},
	{"Fig", 12, 0.2},
}
fmt.Printf("%-12s %5s %8s\n", headers[0], headers[1], headers[2])
for _, r := range rows {
	fmt.Printf("%-12s %5d %8.2f\n", r[0], r[1], r[2])
}
fmt.Printf("%-12s %5v %8v\n", "none", nil, true)
