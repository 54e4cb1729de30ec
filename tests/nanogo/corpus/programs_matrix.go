package main

import "fmt"

type Matrix [][]float64

func NewMatrix(r, c int) Matrix {
	m := make(Matrix, r)
	for i := range m {
		m[i] = make([]float64, c)
	}
	return m
}

func (a Matrix) Mul(b Matrix) Matrix {
	out := NewMatrix(len(a), len(b[0]))
	for i := range a {
		for j := range b[0] {
			for k := range b {
				out[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return out
}

func (a Matrix) Transpose() Matrix {
	out := NewMatrix(len(a[0]), len(a))
	for i := range a {
		for j := range a[i] {
			out[j][i] = a[i][j]
		}
	}
	return out
}

func main() {
	a := Matrix{{1, 2, 3}, {4, 5, 6}}
	b := Matrix{{7, 8}, {9, 10}, {11, 12}}
	fmt.Println(a.Mul(b))
	fmt.Println(a.Transpose())
	for _, row := range a.Mul(b) {
		for _, v := range row {
			fmt.Printf("%6.1f", v)
		}
		fmt.Println()
	}
}
