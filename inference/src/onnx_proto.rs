//! The part of ONNX's protobuf schema the plain forward pass reads (the graph's
//! initializers and the model's metadata), decoded with prost; every other field is
//! skipped. Field numbers are those of `onnx.proto` (ONNX 1.x, stable since IR 3):
//! `ModelProto.graph = 7`, `.metadata_props = 14`; `GraphProto.initializer = 5`;
//! `TensorProto.dims = 1`, `.data_type = 2`, `.float_data = 4` (packed), `.name = 8`,
//! `.raw_data = 9`; `StringStringEntryProto.key = 1`, `.value = 2`.
//!
//! Why: without the `tract` feature (the browser build) the crate has no ONNX parser of
//! its own; the names mirror tract's generated `pb` module so that [`crate::plain`]
//! reads either. A test decodes the shipped model both ways and compares.

/// `onnx.ModelProto`, the fields read.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ModelProto {
    /// The graph.
    #[prost(message, optional, tag = "7")]
    pub graph: Option<GraphProto>,
    /// Named metadata (the exporter writes `mahjong.encoding_version`).
    #[prost(message, repeated, tag = "14")]
    pub metadata_props: Vec<StringStringEntryProto>,
}

/// `onnx.GraphProto`, the fields read.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GraphProto {
    /// The weights.
    #[prost(message, repeated, tag = "5")]
    pub initializer: Vec<TensorProto>,
}

/// `onnx.TensorProto`, the fields read.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorProto {
    /// The shape.
    #[prost(int64, repeated, tag = "1")]
    pub dims: Vec<i64>,
    /// The element type ([`tensor_proto::DataType`]).
    #[prost(int32, tag = "2")]
    pub data_type: i32,
    /// Float elements, when not in `raw_data`.
    #[prost(float, repeated, tag = "4")]
    pub float_data: Vec<f32>,
    /// The name.
    #[prost(string, tag = "8")]
    pub name: String,
    /// The elements as little-endian bytes.
    #[prost(bytes = "vec", tag = "9")]
    pub raw_data: Vec<u8>,
}

/// `onnx.StringStringEntryProto`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct StringStringEntryProto {
    /// The key.
    #[prost(string, tag = "1")]
    pub key: String,
    /// The value.
    #[prost(string, tag = "2")]
    pub value: String,
}

/// Nested types of [`TensorProto`].
pub mod tensor_proto {
    /// `TensorProto.DataType`, the values read.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    #[repr(i32)]
    pub enum DataType {
        /// 32-bit float.
        Float = 1,
        /// 64-bit float.
        Double = 11,
    }
}

/// Decodes an ONNX file's bytes.
pub fn decode(bytes: &[u8]) -> Result<ModelProto, String> {
    <ModelProto as prost::Message>::decode(bytes).map_err(|e| e.to_string())
}

#[cfg(all(test, feature = "tract"))]
mod tests {
    use super::*;
    use tract_onnx::prelude::Framework;

    /// Differential: the shipped models' initializers and metadata read the same here
    /// as through tract's full schema.
    #[test]
    fn the_shipped_model_reads_as_tract_reads_it() {
        let ours = decode(crate::shipped::ONNX).unwrap();
        let theirs = tract_onnx::onnx()
            .proto_model_for_read(&mut &crate::shipped::ONNX[..])
            .unwrap();
        let (a, b) = (ours.graph.unwrap(), theirs.graph.unwrap());
        assert_eq!(a.initializer.len(), b.initializer.len());
        assert!(!a.initializer.is_empty());
        for (x, y) in a.initializer.iter().zip(&b.initializer) {
            assert_eq!(
                (&x.name, &x.dims, x.data_type),
                (&y.name, &y.dims, y.data_type)
            );
            assert_eq!((&x.raw_data, &x.float_data), (&y.raw_data, &y.float_data));
        }
        let meta = |k: &str, v: &str| (k.to_string(), v.to_string());
        assert_eq!(
            ours.metadata_props
                .iter()
                .map(|p| meta(&p.key, &p.value))
                .collect::<Vec<_>>(),
            theirs
                .metadata_props
                .iter()
                .map(|p| meta(&p.key, &p.value))
                .collect::<Vec<_>>()
        );
        assert!(decode(&crate::shipped::ONNX[..1000]).is_err());
    }
}
