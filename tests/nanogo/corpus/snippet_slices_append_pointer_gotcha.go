type Item struct{ N int }

items := make([]Item, 0, 2)
items = append(items, Item{1})
first := &items[0]
items = append(items, Item{2})
first.N = 10
fmt.Println(items)
items = append(items, Item{3})
first.N = 20
fmt.Println(items, first.N)
