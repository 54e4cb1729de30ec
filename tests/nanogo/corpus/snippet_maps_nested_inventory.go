inventory := map[string]map[string]int{
	"fruits":     {"apple": 5, "banana": 0},
	"vegetables": {"carrot": 12},
}
inventory["fruits"]["cherry"] = 20
inventory["dairy"] = map[string]int{"milk": 3}
fmt.Println(inventory)
total := 0
for _, items := range inventory {
	for _, qty := range items {
		total += qty
	}
}
fmt.Println("total items:", total)
if _, ok := inventory["meat"]; !ok {
	fmt.Println("no meat section")
}
