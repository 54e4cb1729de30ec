values := []float64{3.2, -1.5, 8.75, 0, 4.4}
maxV, minV := values[0], values[0]
for _, v := range values[1:] {
	if v > maxV {
		maxV = v
	}
	if v < minV {
		minV = v
	}
}
fmt.Printf("max=%.2f min=%.2f range=%.2f\n", maxV, minV, maxV-minV)
