//! Datasets: real posting lists read from files, and seeded generators.

pub mod ds2i;
