temps := map[string]float64{"Mon": 22.5, "Tue": 25.1, "Wed": 19.8, "Thu": 28.3, "Fri": 24}
days := []string{"Mon", "Tue", "Wed", "Thu", "Fri"}
sum := 0.0
hottest := days[0]
for _, d := range days {
	sum += temps[d]
	if temps[d] > temps[hottest] {
		hottest = d
	}
}
fmt.Printf("Average: %.2f°C\n", sum/float64(len(days)))
fmt.Printf("Hottest: %s (%.1f°C)\n", hottest, temps[hottest])
fmt.Println(temps)
